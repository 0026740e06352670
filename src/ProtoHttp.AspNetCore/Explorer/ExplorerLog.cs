using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>The explorer's log lines, on the logger of the service whose .proto a browser asked for.</summary>
internal static partial class ExplorerLog
{
    [LoggerMessage(100, LogLevel.Debug, "{Path}: the explorer page, with {Shown} of the file's {Mapped} methods (the ones the user may call).", EventName = "ExplorerPage")]
    public static partial void PageServed(ILogger logger, string path, int shown, int mapped);

    [LoggerMessage(101, LogLevel.Information, "{Path}: no explorer page, since the user may call none of the file's {Mapped} methods.", EventName = "ExplorerPageRefused")]
    public static partial void PageRefused(ILogger logger, string path, int mapped);
}

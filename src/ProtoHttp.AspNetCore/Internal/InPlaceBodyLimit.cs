using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// How large a request body may grow while it is parsed straight from the server's request pipe. Bytes left
/// unconsumed there count against Kestrel's request buffer (HTTP/1.1) and the stream's flow-control window (HTTP/2),
/// so the size stays within half of the smaller of the two, whatever the server's configuration. (Kestrel 10 keeps
/// reading even past them, BodyBufferingTests shows, but that is not promised.) A larger body is copied out of the
/// pipe as it arrives (<see cref="RequestBodyReader"/>).
/// </summary>
internal static class InPlaceBodyLimit
{
    /// <summary>Covers the bodies of typical calls (W2's 1,000 records are 107 KB) without holding much of the pipe.</summary>
    private const long Preferred = 256 * 1024;

    /// <summary>For servers whose buffer limits we cannot read (IIS, HTTP.sys, test hosts): the cautious choice.</summary>
    private const long Unknown = 64 * 1024;

    public static long For(IServiceProvider services)
    {
        if (services.GetService<IOptions<KestrelServerOptions>>()?.Value is not { } kestrel)
        {
            return Unknown;
        }

        var limit = Math.Min(Preferred, kestrel.Limits.Http2.InitialStreamWindowSize / 2);
        return kestrel.Limits.MaxRequestBufferSize is { } buffer ? Math.Min(limit, buffer / 2) : limit;
    }
}

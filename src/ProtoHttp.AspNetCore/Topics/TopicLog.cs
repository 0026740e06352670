using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>The log messages of topics (event ids 200-209).</summary>
internal static partial class TopicLog
{
    [LoggerMessage(200, LogLevel.Warning, "The topic engine {Engine} cannot be reached ({Reason}); subscribers stay connected, publishes wait up to {PublishTimeout} then fail, and each topic catches up from the log when it is back.")]
    public static partial void EngineDown(ILogger logger, string engine, string reason, TimeSpan publishTimeout, Exception exception);

    [LoggerMessage(201, LogLevel.Information, "The topic engine {Engine} is back after {Outage}; topics catch up from the log.")]
    public static partial void EngineBack(ILogger logger, string engine, TimeSpan outage);

    [LoggerMessage(202, LogLevel.Warning, "Topic {Topic}: message {Position} is not a {MessageType}; skipped.")]
    public static partial void NotAMessage(ILogger logger, string topic, TopicPosition position, string messageType, Exception exception);

    [LoggerMessage(203, LogLevel.Warning, "Topic {Topic}: this instance fell behind the log by more than it keeps; messages after {Position} were trimmed before it read them.")]
    public static partial void FellBehind(ILogger logger, string topic, TopicPosition position);

    [LoggerMessage(204, LogLevel.Information, "Topic {Topic}: a subscriber resuming after {Position} asked for messages the log no longer keeps; it was told with a gap notice.")]
    public static partial void ResumedPastLog(ILogger logger, string topic, TopicPosition position);
}

using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Every log line ProtoHttp writes, with fixed event ids: Debug for negotiation, Information for client faults,
/// Error for exceptions the app's code throws (the service, its interceptors) and, under an event of its own, for
/// faults in ProtoHttp itself.
/// </summary>
internal static partial class ProtoHttpLog
{
    [LoggerMessage(1, LogLevel.Debug, "{Method}: request in {RequestFormat}, response as {ResponseType}.", EventName = "FormatChosen")]
    public static partial void FormatChosen(ILogger logger, string method, string? requestFormat, string responseType);

    [LoggerMessage(2, LogLevel.Information, "{Method}: rejected with {HttpStatus}: {Reason}", EventName = "CallRejected")]
    public static partial void CallRejected(ILogger logger, string method, int httpStatus, string reason);

    [LoggerMessage(3, LogLevel.Error, "{Method}: the service threw an exception.", EventName = "ServiceFailed")]
    public static partial void ServiceFailed(ILogger logger, string method, Exception exception);

    [LoggerMessage(4, LogLevel.Information, "{Method}: the service answered {StatusCode}: {Detail}", EventName = "RpcStatus")]
    public static partial void RpcStatus(ILogger logger, string method, Grpc.Core.StatusCode statusCode, string detail);

    [LoggerMessage(5, LogLevel.Information, "{Method}: the deadline of {Timeout} passed.", EventName = "DeadlineExceeded")]
    public static partial void DeadlineExceeded(ILogger logger, string method, TimeSpan? timeout);

    [LoggerMessage(6, LogLevel.Information, "{Method}: the client went away before the call completed.", EventName = "ClientDisconnected")]
    public static partial void ClientDisconnected(ILogger logger, string method);

    [LoggerMessage(7, LogLevel.Information, "{Method}: the request could not be read: {Reason}", EventName = "BadRequestBody")]
    public static partial void BadRequestBody(ILogger logger, string method, string reason);

    [LoggerMessage(8, LogLevel.Debug, "Mapped {Method} at {Route}.", EventName = "MethodMapped")]
    public static partial void MethodMapped(ILogger logger, string method, string route);

    [LoggerMessage(9, LogLevel.Error, "{Method}: ProtoHttp failed to handle the call. This is a fault in ProtoHttp (or the host), not in the service.", EventName = "PipelineFailed")]
    public static partial void PipelineFailed(ILogger logger, string method, Exception exception);

    [LoggerMessage(10, LogLevel.Error, "{Method}: the service returned null instead of a response message.", EventName = "ServiceReturnedNull")]
    public static partial void ServiceReturnedNull(ILogger logger, string method);
}

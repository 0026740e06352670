using Grpc.Core;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The one place a failed call is turned into an answer, whatever its protocol: which HTTP status and code, what it
/// logs and at which level, how much of the failure the client is told, and whether it goes out as a status and body
/// or as a stream's last record. How the answer is spelled is the protocol's (<see cref="CallProtocol.WriteErrorAsync"/>).
/// </summary>
internal static class CallErrors
{
    public const string ServiceFailedText = "The service failed to handle the call.";

    /// <summary>The answer when ProtoHttp itself failed: it must not blame the service, which may never have run.</summary>
    public const string PipelineFailedText = "The server failed to handle the call; the fault is in ProtoHttp, not in the service.";

    public const string NullResponseText = "The service returned no response message.";

    /// <summary>Decides and answers a failed call; returns the status it ended with (<c>Cancelled</c> when the client left).</summary>
    public static async Task<StatusCode> FailAsync(ProtoHttpServerCallContext call, Exception exception)
    {
        var context = call.HttpContext;
        var exchange = call.Exchange;
        if (exchange?.RequestStream?.Fault is { } fault && call.FromService)
        {
            // The service failed on the request stream the client got wrong: that is what the call answers.
            exception = fault;
            call.FromService = false;
        }

        var clientGone = context.RequestAborted.IsCancellationRequested;
        if (Decide(exception, call, clientGone) is not { } failure)
        {
            return StatusCode.Cancelled; // The client went away: nobody is left to tell.
        }

        if (call.TrailersOrNull is { } serviceTrailers && (exception is RpcException || exchange?.ResponseStream is not null))
        {
            // As under grpc-dotnet: trailers the service or an interceptor set before the failure go out with it.
            failure = failure with { Trailers = Merge(serviceTrailers, failure.Trailers) };
        }

        try
        {
            if (exchange is not null)
            {
                // The exchange knows whether its answer started and how its protocol tells a failure then.
                await exchange.FailAsync(call, failure);
            }
            else
            {
                await AnswerAsync(context, failure, call.Route.Protocol, call.ErrorType, call.Route.Settings.Codecs);
            }
        }
        catch (Exception ex) when (context.RequestAborted.IsCancellationRequested && ex is OperationCanceledException or IOException)
        {
            // The client left while the answer was on its way.
        }

        return failure.Code;
    }

    /// <summary>
    /// Answers a refusal on an endpoint that is no call (an unknown method, a verb or an origin the endpoint refuses):
    /// logged under <paramref name="name"/>, then answered with its status and hint in <paramref name="protocol"/>'s spelling.
    /// </summary>
    public static Task RefuseAsync(HttpContext context, CallRejectedException rejection, string name, ILogger logger, CallProtocol protocol, MessageCodecs codecs)
    {
        ProtoHttpLog.CallRejected(logger, name, rejection.HttpStatus, rejection.Message);
        return AnswerAsync(context, new CallFailure(rejection.HttpStatus, rejection.Code, rejection.Message, rejection.Hint), protocol, errorType: null, codecs);
    }

    /// <summary>Answers a failure with its status, hint header and body in the protocol's spelling, unless the answer already started.</summary>
    public static Task AnswerAsync(HttpContext context, CallFailure failure, CallProtocol protocol, WritableMediaType? errorType, MessageCodecs codecs)
    {
        var response = context.Response;
        if (response.HasStarted)
        {
            // Too late for an error body: end the connection so the client cannot take a partial body for an answer.
            context.Abort();
            return Task.CompletedTask;
        }

        if (failure.Hint is { } hint)
        {
            response.Headers[hint.Key] = hint.Value;
        }

        // A lone surrogate (a service's own detail can hold one) is something no text format and not even UTF-8 can
        // carry; it goes out visible as \uD800 rather than making the error itself unwritable.
        return protocol.WriteErrorAsync(context, failure with { Text = PrintableText.EscapeLoneSurrogates(failure.Text) }, errorType, codecs);
    }

    /// <summary>
    /// Decides what a failed call answers and logs it at its level; <see langword="null"/> when the client went away and
    /// nobody is left to answer.
    /// </summary>
    public static CallFailure? Decide(Exception exception, ProtoHttpServerCallContext call, bool clientGone)
    {
        var logger = call.Route.Settings.Logger;
        var method = call.Route.Method.Name;
        switch (exception)
        {
            case CallRejectedException rejected:
                ProtoHttpLog.CallRejected(logger, method, rejected.HttpStatus, rejected.Message);
                return new CallFailure(rejected.HttpStatus, rejected.Code, rejected.Message, rejected.Hint, NoAcceptedFormat: rejected.NoAcceptedFormat);

            case InvalidMessageException invalid:
                ProtoHttpLog.BadRequestBody(logger, method, invalid.Message);
                return new CallFailure(StatusCodes.Status400BadRequest, StatusCode.InvalidArgument, invalid.Message);

            case UnwritableMessageException unwritable:
                ProtoHttpLog.CallRejected(logger, method, StatusCodes.Status406NotAcceptable, unwritable.Message);
                return new CallFailure(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument, unwritable.Message, NoAcceptedFormat: true);

            case BadHttpRequestException badRequest:
                // Kestrel's own verdict on the body: too large, too slow, or cut short.
                ProtoHttpLog.BadRequestBody(logger, method, badRequest.Message);
                return badRequest.StatusCode switch
                {
                    StatusCodes.Status413PayloadTooLarge =>
                        new CallFailure(413, StatusCode.ResourceExhausted, CallRejectedException.TooLarge(call.Route.Settings.Options.MaxRequestBodySize).Message),
                    // The body stopped arriving in the time the server allows for it: a call that ran out of time, as gRPC
                    // and Connect clients read DEADLINE_EXCEEDED, not a malformed request (INVALID_ARGUMENT says the same
                    // request would fail again; sent at speed it succeeds). 408 lets an HTTP client send it again.
                    StatusCodes.Status408RequestTimeout =>
                        new CallFailure(408, StatusCode.DeadlineExceeded, $"The request body did not arrive in time: {badRequest.Message}"),
                    _ => new CallFailure(badRequest.StatusCode, StatusCode.InvalidArgument, $"The request body could not be read: {badRequest.Message}"),
                };

            case OperationCanceledException when call.DeadlineExpired:
                ProtoHttpLog.DeadlineExceeded(logger, method, call.Timeout);
                return new CallFailure(StatusCodes.Status504GatewayTimeout, StatusCode.DeadlineExceeded,
                    $"The deadline of {call.Timeout?.TotalMilliseconds} ms passed before the call completed.");

            case OperationCanceledException or ConnectionResetException or IOException when clientGone:
                ProtoHttpLog.ClientDisconnected(logger, method);
                return null;

            case RpcException rpc:
                ProtoHttpLog.RpcStatus(logger, method, rpc.StatusCode, rpc.Status.Detail);
                return new CallFailure(StatusMapping.ToHttpStatus(rpc.StatusCode), rpc.StatusCode, rpc.Status.Detail, Trailers: rpc.Trailers);

            case NullResponseException:
                ProtoHttpLog.ServiceReturnedNull(logger, method);
                return new CallFailure(StatusCodes.Status500InternalServerError, StatusCode.Internal, NullResponseText);

            case Exception when call.FromService:
                // The app's code: the service, an interceptor, or their activation by DI.
                ProtoHttpLog.ServiceFailed(logger, method, exception);
                var text = call.Route.Settings.DetailedErrors ? $"{ServiceFailedText} {exception.Message}" : ServiceFailedText;
                return new CallFailure(StatusCodes.Status500InternalServerError, StatusCode.Unknown, text);

            default:
                // Reading, binding or writing failed in a way no client input explains: a ProtoHttp bug or a broken
                // host. Logged as ours so nobody hunts for it in the service.
                ProtoHttpLog.PipelineFailed(logger, method, exception);
                var pipelineText = call.Route.Settings.DetailedErrors ? $"{PipelineFailedText} {exception.Message}" : PipelineFailedText;
                return new CallFailure(StatusCodes.Status500InternalServerError, StatusCode.Internal, pipelineText);
        }
    }

    private static Metadata? Merge(Metadata first, Metadata? second)
    {
        if (second is not { Count: > 0 })
        {
            return first;
        }

        var merged = new Metadata();
        foreach (var entry in first.Concat(second))
        {
            merged.Add(entry);
        }

        return merged;
    }
}

using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Connect;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// The one place a failed call is turned into an answer: which HTTP status and ErrorResult code, what it logs
/// and at which level, and how much of the failure the client is told.
/// </summary>
internal static class CallErrors
{
    public const string ServiceFailedText = "The service failed to handle the call.";

    /// <summary>The answer when ProtoHttp itself failed: it must not blame the service, which may never have run.</summary>
    public const string PipelineFailedText = "The server failed to handle the call; the fault is in ProtoHttp, not in the service.";

    public const string NullResponseText = "The service returned no response message.";

    /// <summary>Decides and answers a failed call; returns the status it answered (<c>Cancelled</c> when the client left).</summary>
    public static async Task<StatusCode> HandleAsync(HttpContext context, Exception exception, CallFailureInfo call)
    {
        if (Decide(exception, call, context.RequestAborted.IsCancellationRequested) is not { } failure)
        {
            return StatusCode.Cancelled;
        }

        await AnswerAsync(context, failure, call);
        return failure.Code;
    }

    /// <summary>Answers a failure <see cref="Decide"/> found with its status, hint header, trailers and ErrorResult.</summary>
    public static Task AnswerAsync(HttpContext context, CallFailure failure, CallFailureInfo call)
    {
        var headers = context.Response.Headers;
        if (failure.Hint is { } hint)
        {
            headers[hint.Key] = hint.Value;
        }

        if (failure.Trailers is { } trailers && call.Connect)
        {
            // The rich status travels in the error's details; the other trailers as trailer- headers.
            HeaderMetadata.AddToResponse(trailers, headers, ConnectHeaders.TrailerPrefix, except: RpcStatusDetails.TrailerName);
            return WriteAsync(context, failure.HttpStatus, failure.Code, failure.Text, call, RpcStatusDetails.Read(trailers));
        }

        if (failure.Trailers is { } unaryTrailers)
        {
            HeaderMetadata.AddToResponse(unaryTrailers, headers);
        }

        return WriteAsync(context, failure.HttpStatus, failure.Code, failure.Text,
            failure.InJson ? call with { ErrorType = MediaTypes.Canonical(MessageFormat.Json) } : call);
    }

    /// <summary>
    /// Decides what a failed call answers and logs it at its level; <see langword="null"/> when the client went away and
    /// nobody is left to answer. Unary calls write the answer as an ErrorResult; streams that already started write it
    /// as their last record.
    /// </summary>
    public static CallFailure? Decide(Exception exception, CallFailureInfo call, bool clientGone)
    {
        var logger = call.Logger;
        switch (exception)
        {
            case CallRejectedException rejected:
                ProtoHttpLog.CallRejected(logger, call.Method, rejected.HttpStatus, rejected.Message);
                return new CallFailure(rejected.HttpStatus, rejected.Code, rejected.Message, rejected.Hint);

            case InvalidMessageException invalid:
                ProtoHttpLog.BadRequestBody(logger, call.Method, invalid.Message);
                return new CallFailure(StatusCodes.Status400BadRequest, StatusCode.InvalidArgument, invalid.Message);

            case UnwritableMessageException unwritable:
                ProtoHttpLog.CallRejected(logger, call.Method, StatusCodes.Status406NotAcceptable, unwritable.Message);
                return new CallFailure(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument, unwritable.Message, InJson: true);

            case BadHttpRequestException badRequest:
                // Kestrel's own verdict on the body: too large, too slow, or cut short.
                ProtoHttpLog.BadRequestBody(logger, call.Method, badRequest.Message);
                return badRequest.StatusCode switch
                {
                    StatusCodes.Status413PayloadTooLarge =>
                        new CallFailure(413, StatusCode.ResourceExhausted, CallRejectedException.TooLarge(call.MaxRequestBodySize).Message),
                    // The body stopped arriving in the time the server allows for it: a call that ran out of time, as gRPC
                    // and Connect clients read DEADLINE_EXCEEDED, not a malformed request (INVALID_ARGUMENT says the same
                    // request would fail again; sent at speed it succeeds). 408 lets an HTTP client send it again.
                    StatusCodes.Status408RequestTimeout =>
                        new CallFailure(408, StatusCode.DeadlineExceeded, $"The request body did not arrive in time: {badRequest.Message}"),
                    _ => new CallFailure(badRequest.StatusCode, StatusCode.InvalidArgument, $"The request body could not be read: {badRequest.Message}"),
                };

            case OperationCanceledException when call.DeadlineExpired:
                ProtoHttpLog.DeadlineExceeded(logger, call.Method, call.Timeout);
                return new CallFailure(StatusCodes.Status504GatewayTimeout, StatusCode.DeadlineExceeded,
                    $"The deadline of {call.Timeout?.TotalMilliseconds} ms passed before the call completed.");

            case OperationCanceledException or ConnectionResetException or IOException when clientGone:
                ProtoHttpLog.ClientDisconnected(logger, call.Method);
                return null;

            case RpcException rpc:
                ProtoHttpLog.RpcStatus(logger, call.Method, rpc.StatusCode, rpc.Status.Detail);
                return new CallFailure(StatusMapping.ToHttpStatus(rpc.StatusCode), rpc.StatusCode, rpc.Status.Detail, Trailers: rpc.Trailers);

            case NullResponseException:
                ProtoHttpLog.ServiceReturnedNull(logger, call.Method);
                return new CallFailure(StatusCodes.Status500InternalServerError, StatusCode.Internal, NullResponseText);

            case Exception when call.FromService:
                // The app's code: the service, an interceptor, or their activation by DI.
                ProtoHttpLog.ServiceFailed(logger, call.Method, exception);
                var text = call.DetailedErrors ? $"{ServiceFailedText} {exception.Message}" : ServiceFailedText;
                return new CallFailure(StatusCodes.Status500InternalServerError, StatusCode.Unknown, text);

            default:
                // Reading, binding or writing failed in a way no client input explains: a ProtoHttp bug or a broken
                // host. Logged as ours so nobody hunts for it in the service.
                ProtoHttpLog.PipelineFailed(logger, call.Method, exception);
                var pipelineText = call.DetailedErrors ? $"{PipelineFailedText} {exception.Message}" : PipelineFailedText;
                return new CallFailure(StatusCodes.Status500InternalServerError, StatusCode.Internal, pipelineText);
        }
    }

    public static Task WriteAsync(HttpContext context, int httpStatus, StatusCode code, string text, CallFailureInfo call, IReadOnlyList<Any>? details = null)
    {
        var response = context.Response;
        if (response.HasStarted)
        {
            // Too late for an ErrorResult: end the connection so the client cannot take a partial body for an answer.
            context.Abort();
            return Task.CompletedTask;
        }

        // A lone surrogate (a service's own detail can hold one) is something no text format and not even UTF-8 can
        // carry; it goes out visible as \uD800 rather than making the error itself unwritable.
        var errorText = PrintableText.EscapeLoneSurrogates(text);
        if (call.Connect)
        {
            // Connect answers its own refusals of verb, media type and HTTP version, and a body that stopped arriving, with
            // their HTTP statuses, as ProtoHttp's routes do; every other error's status follows from its code.
            var status = httpStatus is StatusCodes.Status405MethodNotAllowed or StatusCodes.Status415UnsupportedMediaType or StatusCodes.Status505HttpVersionNotsupported
                or StatusCodes.Status408RequestTimeout
                ? httpStatus
                : ConnectCodes.HttpStatus(code);
            return ConnectErrorWriter.WriteAsync(response, status, code, errorText, details ?? []);
        }

        var type = call.ErrorType ?? ErrorFormat.Choose(context.Request, forced: null);
        if (type.Format == MessageFormat.Xml)
        {
            // A detail or a quoted input may hold what XML cannot carry (a NUL, a bell); the error keeps the format the
            // client asked for, as every other answer does, with U+FFFD in those places.
            errorText = PrintableText.ReplaceUnwritableInXml(errorText);
        }

        var error = new ErrorResult { Code = StatusMapping.ToCodeName(code), ErrorText = errorText };

        return ResponseWriter.WriteAsync(response, httpStatus, error, type, call.Codecs);
    }
}

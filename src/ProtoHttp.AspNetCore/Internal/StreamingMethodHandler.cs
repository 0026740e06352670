using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Answers 501 for a streaming method: a plain HTTP request carries exactly one message each way.</summary>
internal sealed class StreamingMethodHandler(IMethod method, MessageCodecs codecs, ILogger logger)
{
    public RequestDelegate HandlerFor(WritableMediaType? forcedType) => context =>
    {
        context.Response.Headers.Vary = "Accept";
        var failure = new CallFailureInfo(method.Name, logger, codecs, DetailedErrors: false, MaxRequestBodySize: 0, ErrorType: forcedType);
        var rejection = new CallRejectedException(StatusCodes.Status501NotImplemented, StatusCode.Unimplemented,
            $"Method '{method.Name}' is a {method.Type} method; ProtoHttp calls only unary methods.");
        return CallErrors.HandleAsync(context, rejection, failure);
    };
}

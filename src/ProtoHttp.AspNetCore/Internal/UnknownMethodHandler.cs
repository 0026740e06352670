using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Answers 404 with an ErrorResult for any path under the service prefix that names no method.</summary>
internal sealed class UnknownMethodHandler(MessageCodecs codecs, ILogger logger)
{
    public const string PathParameter = "method";

    public Task HandleAsync(HttpContext context)
    {
        context.Response.Headers.Vary = "Accept";
        var name = context.GetRouteValue(PathParameter) as string ?? string.Empty;
        var failure = new CallFailureInfo(name, logger, codecs, DetailedErrors: false, MaxRequestBodySize: 0, ErrorType: null);
        return CallErrors.HandleAsync(context, NotFound(name), failure);
    }

    public static CallRejectedException NotFound(string name) =>
        new(StatusCodes.Status404NotFound, StatusCode.NotFound, $"Method '{name}' not found.");
}

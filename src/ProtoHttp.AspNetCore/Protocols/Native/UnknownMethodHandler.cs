using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>Answers 404 with an ErrorResult for any path under the service prefix that names no method.</summary>
internal sealed class UnknownMethodHandler(MessageCodecs codecs, ILogger logger)
{
    public const string PathParameter = "method";

    public Task HandleAsync(HttpContext context)
    {
        // The catch-all route names the method; a method route reached with the wrong case does not.
        var path = context.Request.Path.Value ?? string.Empty;
        var name = context.GetRouteValue(PathParameter) as string ?? path[(path.LastIndexOf('/') + 1)..];
        var rejection = new CallRejectedException(StatusCodes.Status404NotFound, StatusCode.NotFound, $"Method '{name}' not found.");
        return CallErrors.RefuseAsync(context, rejection, name, logger, NativeProtocol.Instance, codecs);
    }
}

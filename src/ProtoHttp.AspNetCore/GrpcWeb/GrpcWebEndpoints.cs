using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.GrpcWeb;

/// <summary>Maps a method's gRPC-Web endpoint at its procedure path, beside Connect's (<see cref="GrpcWebMatcherPolicy"/> picks).</summary>
internal static class GrpcWebEndpoints
{
    /// <param name="endpoints">The application's endpoints.</param>
    /// <param name="route">The path, <c>/{package.Service}/{Method}</c>.</param>
    /// <param name="handler">The method's gRPC-Web call handler.</param>
    /// <param name="metadata">The service's and method's metadata (authorization and the like), as Connect's endpoint has.</param>
    /// <param name="logger">The service's logger.</param>
    public static IEndpointConventionBuilder Map(
        IEndpointRouteBuilder endpoints, string route, RequestDelegate handler, IEnumerable<object> metadata, ILogger logger)
    {
        ProtoHttpLog.MethodMapped(logger, route[(route.LastIndexOf('/') + 1)..], route);

        // Routing matches paths case-insensitively; method names are exact, and another spelling is a method this server
        // does not have, which gRPC answers UNIMPLEMENTED.
        RequestDelegate exact = context => context.Request.Path.Value == route ? handler(context) : UnimplementedAsync(context);
        return endpoints.Map(route, exact)
            .WithDisplayName("ProtoHttp gRPC-Web " + route)
            // OpenAPI has no words for framed messages: the method is described at its ProtoHttp route and Connect path.
            .WithMetadata([.. metadata, GrpcWebEndpointMetadata.Instance, new ExcludeFromDescriptionAttribute()]);
    }

    private static Task UnimplementedAsync(HttpContext context)
    {
        var type = GrpcWebMediaTypes.Parse(context.Request.ContentType) ?? new GrpcWebMediaType(MessageFormat.Protobuf, Text: false, GrpcWebMediaTypes.Binary);
        var answer = new GrpcWebResponseWriter(context, type, codec: null);
        return answer.EndAsync(StatusCode.Unimplemented, $"No method {context.Request.Path.Value} here; method names are case-sensitive.", trailers: null);
    }
}

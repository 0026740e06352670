using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A protocol added from this project, as a fourth protocol would be added to ProtoHttp (a <see cref="CallProtocol"/>
/// registered in DI), that only maps endpoints: each unary method at <c>/described/{package.Service}/{Method}</c>,
/// reading and writing <see cref="MediaType"/>. It exists to show that what describes endpoints (OpenAPI) reads their
/// metadata and keeps no list of protocols or media types; its calls are never made.
/// </summary>
internal sealed class DescribedOnlyProtocol : CallProtocol
{
    public const string MediaType = "application/x-described";

    // A protocol ProtoHttp does not know: its name is its own.
    public const string Protocol = "DescribedOnly";

    public override string Name => Protocol;

    public override string TelemetrySystem => "described";

    public override KeyValuePair<string, object?>? StatusTag(StatusCode code) => null;

    public override void MapEndpoints(ServiceEndpoints service)
    {
        foreach (var method in service.Methods.Where(m => m.Method.Type == MethodType.Unary))
        {
            var route = new CallRoute(this, method, service, $"/described{service.Prefix}/{method.Name}")
            {
                Reads = [MediaType],
                Writes = [MediaType],
            };
            service.MapMethod(method, route, method.Handler(route), "Described " + route.Pattern);
        }
    }

    public override TimeSpan? ReadTimeout(HttpRequest request) => throw new NotSupportedException();

    public override CallExchange Accept(ProtoHttpServerCallContext call) => throw new NotSupportedException();

    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs) => throw new NotSupportedException();
}

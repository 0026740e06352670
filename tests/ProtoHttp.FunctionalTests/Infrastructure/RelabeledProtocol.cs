using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A protocol added from this project (a <see cref="CallProtocol"/> registered in DI) whose calls are made: it maps each
/// unary and server-streaming method at <c>/relabeled{prefix}/{Method}</c> and answers as ProtoHttp's own protocol does,
/// under a name and an <c>rpc.system</c> of its own. It shows that telemetry tags a call as the endpoint's metadata
/// says, for a protocol ProtoHttp has no name for.
/// </summary>
internal sealed class RelabeledProtocol : CallProtocol
{
    public const string RpcSystem = "relabeled_rpc";

    public const string PathPrefix = "/relabeled";

    // A protocol ProtoHttp does not know by name: no value of the enum stands for it.
    public const ProtoHttpProtocol Protocol = (ProtoHttpProtocol)43;

    private static readonly NativeProtocol Native = NativeProtocol.Instance;

    public override ProtoHttpProtocol Name => Protocol;

    public override string TelemetrySystem => RpcSystem;

    public override KeyValuePair<string, object?>? StatusTag(StatusCode code) => Native.StatusTag(code);

    public override void MapEndpoints(ServiceEndpoints service)
    {
        foreach (var method in service.Methods.Where(m => m.Method.Type is MethodType.Unary or MethodType.ServerStreaming))
        {
            var route = new CallRoute
            {
                Protocol = this, Method = method.Method, Descriptor = method.Descriptor, Settings = service.Settings, ProtoSource = service.ProtoSource,
                Pattern = $"{PathPrefix}{service.Prefix}/{method.Name}",
                Reads = ["application/json"],
                Writes = method.Method.Type == MethodType.Unary ? ["application/json"] : ["application/x-ndjson"],
            };
            service.MapMethod(method, route, method.Handler(route), "Relabeled " + route.Pattern);
        }
    }

    public override TimeSpan? ReadTimeout(HttpRequest request) => Native.ReadTimeout(request);

    public override void Accept(ProtoHttpServerCallContext call) => Native.Accept(call);

    public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
        Native.ReadMessageAsync(call, cancellationToken);

    public override Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message) => Native.WriteMessageAsync(call, message);

    public override StreamResponseWriter OpenResponseStream(ProtoHttpServerCallContext call) => Native.OpenResponseStream(call);

    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs) =>
        Native.WriteErrorAsync(context, failure, errorType, codecs);
}

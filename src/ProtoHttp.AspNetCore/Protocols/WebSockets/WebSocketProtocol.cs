using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.WebSockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using ProtoHttp.AspNetCore.Explorer;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.WebSockets;

/// <summary>
/// Calls over WebSocket (docs/protocol.md section 13) at ProtoHttp's own <c>/{file}.proto/{Method}</c>, for every kind
/// of method, over HTTP/1.1 (RFC 6455) and HTTP/2 (RFC 8441): the upgrades there are claimed from the native protocol
/// (<see cref="WebSocketUpgradeClaim"/>); the subprotocol picks the codec; every message is one envelope each way; the
/// outcome is the end envelope with Connect's end-stream JSON, then the close. The app adds no middleware: each
/// endpoint runs ASP.NET Core's WebSocket handshake itself (a no-op where the app's <c>UseWebSockets()</c> ran).
/// </summary>
internal sealed class WebSocketProtocol : CallProtocol
{
    /// <summary>Where the browser module is served (docs/protocol.md section 13), once per application.</summary>
    public const string ModulePath = "/_protohttp/protohttp.mjs";

    private static readonly Lazy<ExplorerAssets> Module = new(() => ExplorerAssets.FromResource("ProtoHttp.WebSockets.protohttp.mjs", "text/javascript; charset=utf-8"));

    // The module is mapped with the application's first service (one protocol instance per application).
    private int _moduleMapped;

    /// <summary>The protocol's name in its endpoints' metadata and in <c>ProtoHttpOptions.DisabledProtocols</c>.</summary>
    public const string ProtocolName = "WebSocket";

    public override string Name => ProtocolName;

    /// <summary>ProtoHttp's own protocol, carried by a WebSocket.</summary>
    public override string TelemetrySystem => "protohttp";

    public override void MapEndpoints(ServiceEndpoints service)
    {
        var settings = service.Settings;
        var subprotocols = WebSocketSubprotocols.All(settings.Codecs);
        var loggerFactory = service.Endpoints.ServiceProvider.GetRequiredService<ILoggerFactory>();
        // AllowedOrigins stays empty: the origin is checked against the endpoint's CORS policy (WebSocketOrigin).
        var handshake = Options.Create(new WebSocketOptions());
        if (Interlocked.Exchange(ref _moduleMapped, 1) == 0)
        {
            service.Endpoints.MapMethods(ModulePath, [HttpMethods.Get, HttpMethods.Head], Module.Value.HandleAsync)
                .WithDisplayName("ProtoHttp browser module")
                .WithMetadata(new ExcludeFromDescriptionAttribute(), BrowserModuleMetadata.Instance);
        }

        foreach (var method in service.Methods)
        {
            var route = new CallRoute(this, method, service, $"{service.Prefix}/{method.Name}")
            {
                Reads = subprotocols,
                Writes = subprotocols,
            };
            var upgrade = new WebSocketMiddleware(method.Handler(route), handshake, loggerFactory);
            RequestDelegate checkedHandler = async context =>
            {
                if (!await WebSocketOrigin.IsAllowedAsync(context))
                {
                    await CallErrors.RefuseAsync(context, new CallRejectedException(StatusCodes.Status403Forbidden, StatusCode.PermissionDenied,
                        $"A WebSocket from the page at {context.Request.Headers.Origin} is not allowed here: the origin is neither this server's nor one the endpoint's CORS policy allows."),
                        method.Name, settings.Logger, this, settings.Codecs);
                    return;
                }

                await upgrade.Invoke(context);
            };
            var exact = ExactPath.Guard("/" + method.Name, checkedHandler, context => CallErrors.RefuseAsync(context,
                new CallRejectedException(StatusCodes.Status404NotFound, StatusCode.Unimplemented, $"No method {context.Request.Path.Value} here; method names are case-sensitive."),
                method.Name, settings.Logger, this, settings.Codecs));
            service.MapMethod(method, route, exact, "ProtoHttp WebSocket " + route.Pattern,
                WebSocketUpgradeClaim.Instance, new ExcludeFromDescriptionAttribute());
        }
    }

    /// <summary>Nothing to check: the upgrade claim (<see cref="WebSocketUpgradeClaim"/>) took only GET and extended CONNECT upgrades.</summary>
    public override void CheckVerb(HttpRequest request, CallRoute route)
    {
    }

    public override CallExchange Accept(ProtoHttpServerCallContext call)
    {
        var context = call.HttpContext;
        var route = call.Route;
        if (!context.WebSockets.IsWebSocketRequest)
        {
            throw CallRejectedException.BadRequest(
                "The request asks for a WebSocket but is not a valid handshake: it needs Sec-WebSocket-Version 13 and a Sec-WebSocket-Key (RFC 6455 section 4.1).");
        }

        var codecs = route.Settings.Codecs;
        var (type, subprotocol) = WebSocketSubprotocols.Choose(context.WebSockets.WebSocketRequestedProtocols, codecs);
        ReadTimeout(context.Request); // A malformed timeout is refused before the upgrade.

        // From here on every outcome is told in the end envelope, over the socket.
        var singleRequest = route.Kind is MethodType.Unary or MethodType.ServerStreaming;
        var connection = new WebSocketConnection(context, subprotocol, type.Codec, route.Descriptor.InputType, route.Settings, singleRequest);
        return new WebSocketExchange(call, type, connection);
    }

    public override TimeSpan? ReadTimeout(HttpRequest request) => WebSocketTimeout.Read(request);

    /// <summary>A refusal of the upgrade (before the handshake, or before the endpoint): the status and an ErrorResult in JSON.</summary>
    public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs) =>
        ErrorResultWriter.WriteAsync(context.Response, failure, codecs.Canonical(CodecNames.Json));
}

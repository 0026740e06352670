using System.Collections.Concurrent;
using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.Client.Internal.Protocols;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// What every call of one configured client shares: the address, the codecs, and the per-method data, computed once.
/// Clients created through dependency injection share one instance per name, so the cache outlives each client.
/// </summary>
internal sealed class InvokerSettings
{
    // Responses from a newer server may carry fields this client's generated code does not know yet.
    private static readonly FormatOptions ResponseFormatOptions = new() { IgnoreUnknownFields = true };

    private readonly ConcurrentDictionary<IMethod, ClientMethod> _methods = new();

    public InvokerSettings(ProtoHttpClientOptions options, Uri? httpClientAddress, ServiceDescriptor? clientService = null)
    {
        var address = options.Address ?? httpClientAddress
            ?? throw new InvalidOperationException(
                "The ProtoHttp client has no address: set ProtoHttpClientOptions.Address (or the HttpClient's BaseAddress) to the server's, e.g. http://localhost:5080.");
        if (!address.IsAbsoluteUri)
        {
            throw new InvalidOperationException($"The ProtoHttp client's address '{address}' must be absolute, e.g. http://localhost:5080.");
        }

        // A base without a trailing slash would lose its last segment when the method path is resolved against it.
        BaseAddress = address.AbsolutePath.EndsWith('/') ? address : new Uri(address.AbsoluteUri + "/");
        Services = clientService is null ? [.. options.Services] : [.. options.Services, clientService];

        // An Any in JSON names its type: those of the named services' files (and their imports) and the well-known ones.
        var codecs = new MessageCodecs(ResponseFormatOptions.WithAnyTypesOf(Services.Select(service => service.File)), options.Codecs);
        Protocol = ClientProtocols.For(options.Protocol, codecs, options.Codec);
        ProtocolName = options.Protocol;
        MaxResponseSize = options.MaxResponseSize;
        if (options.RequestStreamsOverWebSocket && !string.Equals(options.Protocol, ProtocolNames.ProtoHttp, StringComparison.OrdinalIgnoreCase))
        {
            throw new InvalidOperationException("Calls over WebSocket are ProtoHttp's own protocol (docs/protocol.md section 13): set RequestStreamsOverWebSocket only with ProtocolNames.ProtoHttp.");
        }

        RequestStreamsOverWebSocket = options.RequestStreamsOverWebSocket;
        WebSocketSubprotocol = "protohttp+" + Protocol.Codec.Name;
    }

    /// <summary>Whether client-streaming and bidirectional calls go over a WebSocket (<see cref="ProtoHttpClientOptions.RequestStreamsOverWebSocket"/>).</summary>
    public bool RequestStreamsOverWebSocket { get; }

    /// <summary>The subprotocol of a call over WebSocket, naming the codec: <c>protohttp+proto</c>, <c>protohttp+json</c>.</summary>
    public string WebSocketSubprotocol { get; }

    public Uri BaseAddress { get; }

    /// <summary>The name of the protocol, as the options give it.</summary>
    public string ProtocolName { get; }

    /// <summary>The protocol calls are made in, and the codec they are written in.</summary>
    public ClientWireProtocol Protocol { get; }

    public MessageCodecs Codecs => Protocol.Codecs;

    public MessageCodec Writer => Protocol.Codec;

    public long? MaxResponseSize { get; }

    /// <summary>Services whose files were named up front, so they need no search.</summary>
    public IReadOnlyList<ServiceDescriptor> Services { get; }

    public ClientMethod Method<TRequest, TResponse>(Method<TRequest, TResponse> method)
        where TRequest : class
        where TResponse : class =>
        _methods.GetOrAdd(method, static (m, settings) => ClientMethod.Create((Method<TRequest, TResponse>)m, settings), this);
}

using System.Collections.Concurrent;
using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// What every call of one configured client shares: the address, the codecs, and the per-method data, computed once.
/// Clients created through dependency injection share one instance per name, so the cache outlives each client.
/// </summary>
internal sealed class InvokerSettings
{
    // Responses from a newer server may carry fields this client's generated code does not know yet.
    private static readonly FormatOptions ResponseFormatOptions = new() { IgnoreUnknownFields = true };

    private readonly ConcurrentDictionary<IMethod, object> _methods = new();

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
        Codecs = new MessageCodecs(ResponseFormatOptions.WithAnyTypesOf(Services.Select(service => service.File)));
        Format = options.Format;
        Writer = Codecs.Writer(Format) ?? throw new InvalidOperationException(Format == MessageFormat.Form
            ? "ProtoHttp clients cannot send Form: servers answer in protobuf, JSON or XML, so choose one of those."
            : $"This build of ProtoHttp has no {Format} codec: choose {MessageFormat.Protobuf} or {MessageFormat.Json}.");
        Protocol = options.Protocol;
        if (Protocol == ClientProtocol.Connect)
        {
            ContentType = Format switch
            {
                MessageFormat.Protobuf => "application/proto",
                MessageFormat.Json => "application/json",
                _ => throw new InvalidOperationException($"Connect carries protobuf or JSON, not {Format}: choose {MessageFormat.Protobuf} or {MessageFormat.Json}."),
            };
        }
        else
        {
            ContentType = MediaTypes.Canonical(Format).ContentType;
        }

        Accept = MediaTypes.Canonical(Format).MediaType;

        // Streams travel in Connect envelopes of the unary codec; XML has no stream form (docs/protocol.md section 10).
        StreamContentType = Format switch
        {
            MessageFormat.Protobuf => StreamMediaTypes.ConnectProto,
            MessageFormat.Json => StreamMediaTypes.ConnectJson,
            _ => null,
        };
        MaxResponseSize = options.MaxResponseSize;
    }

    public Uri BaseAddress { get; }

    public ClientProtocol Protocol { get; }

    public MessageCodecs Codecs { get; }

    public MessageFormat Format { get; }

    public IMessageCodec Writer { get; }

    /// <summary>The request <c>Content-Type</c>, with <c>charset=utf-8</c> for the text formats.</summary>
    public string ContentType { get; }

    public string Accept { get; }

    /// <summary>The envelope type streaming calls send and ask for, <see langword="null"/> for a format without one (XML).</summary>
    public string? StreamContentType { get; }

    public long? MaxResponseSize { get; }

    /// <summary>Services whose files were named up front, so they need no search.</summary>
    public IReadOnlyList<ServiceDescriptor> Services { get; }

    public ClientMethod<TRequest, TResponse> Method<TRequest, TResponse>(Method<TRequest, TResponse> method)
        where TRequest : class
        where TResponse : class =>
        (ClientMethod<TRequest, TResponse>)_methods.GetOrAdd(method, static (m, settings) =>
            new ClientMethod<TRequest, TResponse>((Method<TRequest, TResponse>)m, settings), this);
}

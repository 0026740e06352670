using System.Diagnostics.CodeAnalysis;
using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.AspNetCore.Caching;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// One endpoint of one method in one protocol, decided once when the service is mapped: the path, whether it answers
/// GET, and what it reads and writes. Every call on the endpoint shares it through
/// <see cref="ProtoHttpServerCallContext.Route"/>; the endpoint's <see cref="ProtoHttpMethodMetadata"/> describes it.
/// A protocol that decides more per route derives its own route from this one (connect-go's handler keeps its
/// protocol's state in the protocol's types).
/// </summary>
internal record CallRoute
{
    /// <summary>A route whose initializer sets every required property itself.</summary>
    public CallRoute()
    {
    }

    /// <summary>
    /// A route of <paramref name="method"/> in <paramref name="protocol"/> at <paramref name="pattern"/>, with the
    /// service's settings and <c>.proto</c> source: what every protocol's route shares, so a protocol's initializer
    /// states only what differs (verbs, media types, its own state).
    /// </summary>
    [SetsRequiredMembers]
    public CallRoute(CallProtocol protocol, BoundMethod method, ServiceEndpoints service, string pattern)
    {
        Protocol = protocol;
        Method = method.Method;
        Descriptor = method.Descriptor;
        Settings = service.Settings;
        ProtoSource = service.ProtoSource;
        Pattern = pattern;
    }

    public required CallProtocol Protocol { get; init; }

    /// <summary>The gRPC method: name, service, and kind (<see cref="IMethod.Type"/>).</summary>
    public required IMethod Method { get; init; }

    public required MethodDescriptor Descriptor { get; init; }

    public required CallSettings Settings { get; init; }

    /// <summary>The route pattern the endpoint is mapped at.</summary>
    public required string Pattern { get; init; }

    /// <summary>The error format the route forces (a format named in its path); null where the request decides.</summary>
    public WritableMediaType? ErrorType { get; init; }

    /// <summary>The tail of <see cref="Pattern"/> after the method name that names a format (<c>.json</c>, <c>.sse</c>); empty on the plain route.</summary>
    public string Suffix { get; init; } = "";

    /// <summary>Whether the endpoint answers GET as well as POST.</summary>
    public bool AllowsGet { get; init; }

    /// <summary>The HTTP methods the endpoint answers where they are not POST and GET by <see cref="AllowsGet"/> (a REST rule's verb).</summary>
    public IReadOnlyList<string>? Verbs { get; init; }

    /// <summary>The media types the endpoint reads in a request body, for the endpoint's metadata.</summary>
    public IReadOnlyList<string> Reads { get; init; } = [];

    /// <summary>The media types the endpoint answers in, for the endpoint's metadata.</summary>
    public IReadOnlyList<string> Writes { get; init; } = [];

    public MethodType Kind => Method.Type;

    /// <summary>The unary exchanges of the route's calls, one per reader and answer type, each made once (<see cref="UnaryExchange"/>).</summary>
    public RouteExchanges Exchanges { get; } = new();

    /// <summary>The service's <c>.proto</c> source, loaded on first use, for <see cref="ProtoHttpMethodMetadata.ProtoSource"/>.</summary>
    public required Lazy<byte[]?> ProtoSource { get; init; }

    /// <summary>
    /// The endpoint's <see cref="ProtoHttpMethodMetadata"/>, made on first use (where the route is mapped) from the route's
    /// init-only properties, which nothing changes after: the call's telemetry reads it through the route, so a call
    /// costs no metadata lookup.
    /// </summary>
    public ProtoHttpMethodMetadata Metadata
    {
        get
        {
            // A copy made with `with` copies this field too: made again unless it was made from this very route.
            var described = _described;
            if (described is null || !ReferenceEquals(described.Route, this))
            {
                described = new DescribedRoute(this, new ProtoHttpMethodMetadata(this, ProtoSource));
                _described = described;
            }

            return described.Metadata;
        }
    }

    private DescribedRoute? _described;

    /// <summary>
    /// What makes the route's GET answers conditional (docs/protocol.md section 11): an ETag, the app's Cache-Control,
    /// 304 for a matching If-None-Match; <see langword="null"/> when the method has side effects or streams.
    /// </summary>
    public ConditionalGet? ConditionalGet
    {
        get
        {
            // Decided on first use and kept: every call on the route shares it (a race decides the same twice).
            if (!_conditionalGetDecided)
            {
                _conditionalGet = Kind == MethodType.Unary ? ConditionalGet.For(Descriptor, Settings.Options) : null;
                _conditionalGetDecided = true;
            }

            return _conditionalGet;
        }
    }

    private ConditionalGet? _conditionalGet;
    private bool _conditionalGetDecided;

    private sealed class DescribedRoute(CallRoute route, ProtoHttpMethodMetadata metadata)
    {
        public CallRoute Route { get; } = route;

        public ProtoHttpMethodMetadata Metadata { get; } = metadata;
    }
}

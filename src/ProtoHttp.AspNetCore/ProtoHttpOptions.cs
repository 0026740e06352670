using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// How ProtoHttp serves calls. Set for every service with <c>AddProtoHttp(o =&gt; ...)</c> and for one service with
/// <c>AddProtoHttp().AddServiceOptions&lt;TService&gt;(o =&gt; ...)</c>, which starts from the values set for every service.
/// </summary>
public sealed class ProtoHttpOptions
{
    /// <summary>The default request body limit: 4 MiB.</summary>
    public const long DefaultMaxRequestBodySize = 4 * 1024 * 1024;

    /// <summary>The largest request body accepted, in bytes; a larger one answers 413. Default 4 MiB.</summary>
    public long MaxRequestBodySize { get; set; } = DefaultMaxRequestBodySize;

    /// <summary>
    /// Whether the text of an exception a service throws reaches the client. <see langword="null"/> (the default)
    /// means on in the Development environment and off elsewhere. Stack traces and type names never do.
    /// </summary>
    public bool? EnableDetailedErrors { get; set; }

    /// <summary>Ignore unknown field names in JSON, XML and form input instead of answering 400.</summary>
    public bool IgnoreUnknownFields { get; set; }

    /// <summary>Write JSON with proto field names (<c>page_number</c>) instead of lowerCamelCase (<c>pageNumber</c>).</summary>
    public bool PreserveProtoFieldNames { get; set; }

    /// <summary>
    /// Answer GET calls only for methods marked <c>option idempotency_level = NO_SIDE_EFFECTS;</c>; others answer 405
    /// to GET. <see langword="null"/> (the default) means on when the app uses antiforgery or cookie authentication,
    /// off otherwise: a cross-site link or image carries the browser's cookies on a GET, and no antiforgery token
    /// guards a GET. Set <see langword="false"/> for a service whose every method may be called that way (an opt-in
    /// per service with <c>AddServiceOptions&lt;TService&gt;</c>); see docs/security.md.
    /// </summary>
    public bool? RestrictGetToNoSideEffectMethods { get; set; }

    /// <summary>The default <see cref="StreamKeepAliveInterval"/>: 15 seconds.</summary>
    public static readonly TimeSpan DefaultStreamKeepAliveInterval = TimeSpan.FromSeconds(15);

    /// <summary>
    /// How long an event stream (<c>text/event-stream</c>) may stay silent before a comment line goes out, so proxies
    /// and load balancers keep it open. <see cref="TimeSpan.Zero"/> or <see cref="Timeout.InfiniteTimeSpan"/> sends none.
    /// Default 15 seconds.
    /// </summary>
    public TimeSpan StreamKeepAliveInterval { get; set; } = DefaultStreamKeepAliveInterval;

    /// <summary>Serve the service's <c>.proto</c> text at <c>GET /{file}.proto</c>. Default on.</summary>
    public bool ServeProtoFile { get; set; } = true;

    /// <summary>
    /// The <c>Cache-Control</c> of the service's answers that carry an <c>ETag</c>: GETs of its methods marked
    /// <c>option idempotency_level = NO_SIDE_EFFECTS;</c> (on ProtoHttp's routes and Connect's), and its <c>.proto</c>
    /// and descriptor set; e.g. <c>"public, max-age=60"</c>. <see langword="null"/> (the default) sends none, and
    /// browsers and caches revalidate with <c>If-None-Match</c> as they see fit. Errors and streams never carry it.
    /// </summary>
    public string? CacheControl { get; set; }

    /// <summary>
    /// The <c>Cache-Control</c> of one method's GET answers, by the method's name in the .proto (<c>"GetOrders"</c>),
    /// in place of <see cref="CacheControl"/>; a method without side effects only.
    /// </summary>
    public IDictionary<string, string> MethodCacheControl { get; } = new Dictionary<string, string>(StringComparer.Ordinal);

    /// <summary>
    /// The protocols the service does not answer, by name (<see cref="ProtocolNames"/>, compared without case), e.g.
    /// <c>o.DisabledProtocols.Add(ProtocolNames.GrpcWeb)</c>. By default every registered protocol answers: ProtoHttp's
    /// own at <c>/{file}.proto/{Method}</c>; Connect (connectrpc.com) at <c>/{package.Service}/{Method}</c>, for Connect
    /// clients (connect-es, connect-go, connect-swift, <c>buf curl</c>); gRPC-Web at the same paths for unary and
    /// server-streaming methods, for gRPC-Web clients (grpc-web, connect-es's <c>createGrpcWebTransport</c>,
    /// grpc-dotnet's <c>GrpcWebHandler</c>; where the app turns grpc-dotnet's own gRPC-Web on for the same service,
    /// that one answers). A name no registered protocol has throws when the service is mapped.
    /// </summary>
    public ISet<string> DisabledProtocols { get; } = new HashSet<string>(StringComparer.OrdinalIgnoreCase);

    /// <summary>
    /// The smallest Connect response, in bytes, that is gzipped for a client that accepts gzip; smaller ones go out as
    /// they are, since compressing them costs more than it saves. Default 1 KiB.
    /// </summary>
    public int ConnectCompressionMinSize { get; set; } = 1024;

    /// <summary>
    /// The gRPC interceptors that run around each call, as <c>AddGrpc(o =&gt; o.Interceptors.Add&lt;T&gt;())</c> runs them:
    /// those set for every service first, then the service's own.
    /// </summary>
    public ProtoHttpInterceptorCollection Interceptors { get; } = new();

    /// <summary>
    /// Message types a <c>google.protobuf.Any</c> may hold in JSON besides those of the service's <c>.proto</c> file,
    /// the files it imports and protobuf's well-known types, which are always known: add a type that lives elsewhere, e.g.
    /// <c>o.AnyTypes.Add(Order.Descriptor)</c>. Every type of its file and of that file's imports comes with it.
    /// An <c>Any</c> holding a type known to neither answers 400 in a JSON request and 406 as a JSON answer.
    /// </summary>
    public IList<MessageDescriptor> AnyTypes { get; } = new List<MessageDescriptor>();

    /// <summary>
    /// An app's own codecs, served beside the built-in protobuf, JSON, XML and form ones, e.g.
    /// <c>o.Codecs.Add(new CsvCodec())</c>: a request in one of their media types is read with it, <c>Accept</c> (or the
    /// codec's suffix) chooses it for the answer, and <c>Accept-Post</c>, the 406 and 415 texts, the explorer and OpenAPI
    /// list it. A Connect codec (<see cref="MessageCodec.CanBeEnveloped"/>) also carries Connect calls and streams of
    /// envelopes. A name, media type or suffix that is already another codec's throws when the service is mapped.
    /// </summary>
    public IList<MessageCodec> Codecs { get; } = new List<MessageCodec>();

    /// <summary>The codecs' options for a service declared in <paramref name="file"/>.</summary>
    /// <exception cref="InvalidOperationException">An <see cref="AnyTypes"/> entry has no generated class.</exception>
    internal FormatOptions ToFormatOptions(FileDescriptor file)
    {
        // A descriptor built at run time has no parser: an Any holding it could be read but never unpacked.
        if (AnyTypes.FirstOrDefault(type => type.ClrType is null) is { } dynamic)
        {
            throw new InvalidOperationException($"ProtoHttpOptions.AnyTypes holds {dynamic.FullName}, which has no generated C# class: "
                + $"add the descriptor of the class Grpc.Tools generates for it ({dynamic.Name}.Descriptor).");
        }

        return new FormatOptions
        {
            IgnoreUnknownFields = IgnoreUnknownFields,
            PreserveProtoFieldNames = PreserveProtoFieldNames,
        }
        .WithExtensionsOf([file])
        .WithAnyTypesOf([file, .. AnyTypes.Select(type => type.File)]);
    }
}

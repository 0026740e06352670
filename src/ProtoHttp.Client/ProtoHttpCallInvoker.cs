using Grpc.Core;
using ProtoHttp.Client.Internal;

namespace ProtoHttp.Client;

/// <summary>
/// Calls a ProtoHttp server with a Grpc.Tools-generated client: <c>new SearchService.SearchServiceClient(invoker)</c>
/// sends each call as <c>POST {Address}/{file}.proto/{Method}</c> through an <see cref="HttpClient"/>
/// (docs/protocol.md section 8), or to <c>{Address}/{package.Service}/{Method}</c> in the Connect protocol or in gRPC-Web
/// (<see cref="ProtoHttpClientOptions.Protocol"/>). Thread-safe;
/// create one per HttpClient and share it.
/// </summary>
/// <remarks>
/// <para>
/// The URI names the .proto file, which a generated <c>Method</c> does not carry: the invoker finds the file from the
/// messages' descriptors, or among the loaded assemblies, once per service; <see cref="ProtoHttpClientOptions.Services"/>
/// names it up front.
/// </para>
/// <para>
/// Every kind of method can be called (in gRPC-Web, unary and server-streaming ones). Streaming calls send and read
/// envelopes (<c>application/connect+proto</c>, or <c>connect+json</c> when the format is JSON; XML has no stream form;
/// gRPC-Web's frames) and read the response only as the caller asks, each message at most
/// <see cref="ProtoHttpClientOptions.MaxResponseSize"/>; the status and trailers come from the stream's last frame.
/// Bidirectional calls need HTTP/2.
/// </para>
/// </remarks>
public sealed class ProtoHttpCallInvoker : CallInvoker
{
    private readonly HttpClient _httpClient;
    private readonly InvokerSettings _settings;

    /// <summary>Creates an invoker that sends calls through <paramref name="httpClient"/>.</summary>
    /// <param name="httpClient">The client to send with; its handlers, version and timeout apply. Not disposed by the invoker.</param>
    /// <param name="options">The address, format and limits; <see langword="null"/> for protobuf to the HttpClient's <see cref="HttpClient.BaseAddress"/>.</param>
    /// <exception cref="InvalidOperationException">There is no absolute address, or the format cannot be sent.</exception>
    public ProtoHttpCallInvoker(HttpClient httpClient, ProtoHttpClientOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(httpClient);
        _httpClient = httpClient;
        _settings = new InvokerSettings(options ?? new ProtoHttpClientOptions(), httpClient.BaseAddress);
    }

    internal ProtoHttpCallInvoker(HttpClient httpClient, InvokerSettings settings)
    {
        _httpClient = httpClient;
        _settings = settings;
    }

    /// <inheritdoc/>
    public override AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(Method<TRequest, TResponse> method, string? host, CallOptions options, TRequest request)
    {
        ArgumentNullException.ThrowIfNull(method);
        ArgumentNullException.ThrowIfNull(request);
        return UnaryCall<TRequest, TResponse>.Start(_httpClient, _settings.Method(method), options, request);
    }

    /// <inheritdoc/>
    /// <remarks>
    /// Waits for the asynchronous call, as grpc-dotnet does: HttpClient's synchronous Send would skip the
    /// asynchronous-only handlers (retries, logging) of an IHttpClientFactory pipeline.
    /// </remarks>
    public override TResponse BlockingUnaryCall<TRequest, TResponse>(Method<TRequest, TResponse> method, string? host, CallOptions options, TRequest request)
    {
        using var call = AsyncUnaryCall(method, host, options, request);
        return call.ResponseAsync.GetAwaiter().GetResult();
    }

    /// <inheritdoc/>
    /// <exception cref="RpcException"><c>Unimplemented</c>: the format is XML, which has no stream form.</exception>
    public override AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, string? host, CallOptions options, TRequest request)
    {
        ArgumentNullException.ThrowIfNull(method);
        ArgumentNullException.ThrowIfNull(request);
        return StreamingCall<TRequest, TResponse>.StartServerStreaming(_httpClient, _settings.Method(method), options, request);
    }

    /// <inheritdoc/>
    /// <exception cref="RpcException"><c>Unimplemented</c>: the format is XML, which has no stream form, or the protocol gRPC-Web, which has no request streams.</exception>
    public override AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, string? host, CallOptions options)
    {
        ArgumentNullException.ThrowIfNull(method);
        return StreamingCall<TRequest, TResponse>.StartClientStreaming(_httpClient, _settings.Method(method), options);
    }

    /// <inheritdoc/>
    /// <remarks>
    /// Bidirectional calls need HTTP/2: one sent through an HttpClient whose default version is lower goes as HTTP/2
    /// with <see cref="HttpVersionPolicy.RequestVersionExact"/> (h2c with prior knowledge over <c>http://</c>), and a
    /// server that does not speak it fails the call with <see cref="StatusCode.Unimplemented"/>.
    /// </remarks>
    /// <exception cref="RpcException"><c>Unimplemented</c>: the format is XML, which has no stream form, or the protocol gRPC-Web, which has no request streams.</exception>
    public override AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, string? host, CallOptions options)
    {
        ArgumentNullException.ThrowIfNull(method);
        return StreamingCall<TRequest, TResponse>.StartDuplexStreaming(_httpClient, _settings.Method(method), options);
    }
}

using System.Net;
using System.Net.WebSockets;
using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.Client.Internal.Framing;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// One server-streaming, client-streaming or bidirectional call over envelopes (docs/protocol.md section 10) or
/// gRPC-Web frames (section 12), as the protocol part frames them: the request goes as one envelope or as a request
/// stream; the response is read envelope by envelope as the caller asks, and its last frame gives the status and
/// trailers. A failure before the stream starts is read by the part, as for unary calls.
/// </summary>
internal sealed class StreamingCall<TRequest, TResponse> : ClientCall<TRequest, TResponse>, IAsyncStreamReader<TResponse>, IRequestStreamOwner
    where TRequest : class
    where TResponse : class
{
    private const int MaxResumeAttempts = 5;
    private static readonly TimeSpan ResumeBackoff = TimeSpan.FromMilliseconds(100);

    private readonly bool _duplex;
    private readonly string _streamType;
    private Task _opened = Task.CompletedTask;
    private HttpResponseMessage? _response;
    private ResponseEnvelopeReader? _envelopes;
    private IRequestBody? _requestBody;
    private ClientWebSocket? _socket;
    private int _reading;
    private volatile bool _readCancelled;
    private volatile bool _http2Required;
    private HttpClient? _resumeClient; // A server-streaming call's: it resumes after a broken connection.
    private TRequest? _resumeRequest;
    private string? _lastEventId;

    private StreamingCall(ClientMethod method, CallOptions options, bool duplex)
        : base(method, options)
    {
        _duplex = duplex;
        _streamType = method.Settings.Protocol.StreamContentType!;
    }

    public TResponse Current { get; private set; } = null!;

    CancellationToken IRequestStreamOwner.Token => CallToken;

    public static AsyncServerStreamingCall<TResponse> StartServerStreaming(
        HttpClient httpClient, ClientMethod method, CallOptions options, TRequest request)
    {
        CheckFormat(method, requestStream: false);
        var call = new StreamingCall<TRequest, TResponse>(method, options, duplex: false)
        {
            _resumeClient = httpClient,
            _resumeRequest = request,
        };
        call._opened = call.OpenAsync(httpClient, call.RequestContent());
        return new AsyncServerStreamingCall<TResponse>(call, Headers, Status, Trailers, DisposeCall, call);
    }

    public static AsyncClientStreamingCall<TRequest, TResponse> StartClientStreaming(
        HttpClient httpClient, ClientMethod method, CallOptions options)
    {
        CheckFormat(method, requestStream: true);
        var call = new StreamingCall<TRequest, TResponse>(method, options, duplex: false);
        var requestStream = call.OpenRequestStream(httpClient);
        return new AsyncClientStreamingCall<TRequest, TResponse>(requestStream, call.ReadOnlyMessageAsync(), Headers, Status, Trailers, DisposeCall, call);
    }

    public static AsyncDuplexStreamingCall<TRequest, TResponse> StartDuplexStreaming(
        HttpClient httpClient, ClientMethod method, CallOptions options)
    {
        CheckFormat(method, requestStream: true);
        var call = new StreamingCall<TRequest, TResponse>(method, options, duplex: true);
        var requestStream = call.OpenRequestStream(httpClient);
        return new AsyncDuplexStreamingCall<TRequest, TResponse>(requestStream, call, Headers, Status, Trailers, DisposeCall, call);
    }

    public async Task<bool> MoveNext(CancellationToken cancellationToken)
    {
        if (Interlocked.Exchange(ref _reading, 1) == 1)
        {
            throw new InvalidOperationException("A previous read of the response stream is still in progress; await each MoveNext before the next.");
        }

        try
        {
            // As under gRPC, the token of one read cancels the whole call.
            using var registration = cancellationToken.CanBeCanceled
                ? cancellationToken.Register(static state =>
                {
                    var call = (StreamingCall<TRequest, TResponse>)state!;
                    call._readCancelled = true;
                    call.Cancel();
                }, this)
                : default;
            if (await ReadNextAsync(single: false).ConfigureAwait(false) is not { } message)
            {
                return false;
            }

            Current = message;
            return true;
        }
        finally
        {
            Volatile.Write(ref _reading, 0);
        }
    }

    void IRequestStreamOwner.ThrowIfEnded()
    {
        if (Failure is { } failure)
        {
            throw failure;
        }

        if (Outcome is not null)
        {
            throw new InvalidOperationException($"{Method.FullName} has completed; no more messages can be written to its request stream.");
        }
    }

    async Task<Exception> IRequestStreamOwner.WriteFailedAsync(Exception exception)
    {
        if (Failure is null && !CallToken.IsCancellationRequested)
        {
            // The server may have answered and closed the request stream (an error, a 505): its answer tells why.
            await Task.WhenAny(_opened, Task.Delay(TimeSpan.FromSeconds(5))).ConfigureAwait(false);
        }

        var rpc = Fail(exception);
        Release();
        return rpc;
    }

    protected override void OnDisposed()
    {
        // A read in progress sees the cancellation and releases the response itself.
        if (Volatile.Read(ref _reading) == 0 && _opened.IsCompleted)
        {
            if (Outcome is null)
            {
                Fail(new OperationCanceledException());
            }

            Release();
        }
    }

    protected override RpcException? Translate(Exception exception) => exception switch
    {
        _ when _readCancelled =>
            Error(StatusCode.Cancelled, $"Reading the response stream of {Method.FullName} was cancelled by the token given to MoveNext."),
        HttpRequestException { HttpRequestError: not (HttpRequestError.ConnectionError or HttpRequestError.NameResolutionError) } when _http2Required && _response is null =>
            Error(StatusCode.Unimplemented,
                $"{Method.FullName} is bidirectional, which needs HTTP/2 (requests and responses flow at once), and {Method.Uri} did not answer " +
                $"in HTTP/2: {exception.Message} Call it at an address that serves HTTP/2 (h2c or HTTPS).", exception),
        _ => null,
    };

    /// <exception cref="RpcException">
    /// <c>Unimplemented</c>: the codec has no stream form (XML), or the protocol no request streams (gRPC-Web); thrown
    /// before anything is sent.
    /// </exception>
    private static void CheckFormat(ClientMethod method, bool requestStream)
    {
        if (requestStream && !method.Settings.Protocol.HasRequestStreams)
        {
            throw Error(StatusCode.Unimplemented,
                $"{method.FullName} sends a request stream, which the {method.Settings.ProtocolName} protocol does not carry (gRPC-Web has no client-streaming or bidirectional calls). " +
                $"Call it with a client whose ProtoHttpClientOptions.Protocol is {ProtocolNames.ProtoHttp} or {ProtocolNames.Connect}.");
        }

        if (method.Settings.Protocol.StreamContentType is null)
        {
            throw Error(StatusCode.Unimplemented,
                $"{method.FullName} is a streaming method, and {method.Settings.Writer.Name.ToUpperInvariant()} has no stream format: streams travel as envelopes of a codec that can be enveloped. " +
                $"Call it with a client whose ProtoHttpClientOptions.Codec is one, such as {CodecNames.Protobuf} or {CodecNames.Json}.");
        }
    }

    private static Task<Metadata> Headers(object state) => ((StreamingCall<TRequest, TResponse>)state).ResponseHeadersAsync;

    private static Status Status(object state) => ((StreamingCall<TRequest, TResponse>)state).GetStatus();

    private static Metadata Trailers(object state) => ((StreamingCall<TRequest, TResponse>)state).GetTrailers();

    private static void DisposeCall(object state) => ((StreamingCall<TRequest, TResponse>)state).Dispose();

    private RequestStreamWriter<TRequest> OpenRequestStream(HttpClient httpClient)
    {
        if (Method.Settings.RequestStreamsOverWebSocket)
        {
            var socketBody = new WebSocketRequestBody();
            _requestBody = socketBody;
            _opened = OpenWebSocketAsync(socketBody);
            return new RequestStreamWriter<TRequest>(this, socketBody, Method.Settings.Writer);
        }

        var content = new RequestStreamContent(_streamType, CallToken);
        _requestBody = content;
        _opened = OpenAsync(httpClient, content);
        return new RequestStreamWriter<TRequest>(this, content, Method.Settings.Writer);
    }

    /// <summary>
    /// Opens the call over a WebSocket at the method's path (docs/protocol.md section 13): the metadata and the deadline
    /// as the upgrade's headers, the subprotocol naming the codec; then the requests go out as messages and the answer
    /// is read as the same envelopes as over HTTP. Never throws: a failure is the call's outcome.
    /// </summary>
    private async Task OpenWebSocketAsync(WebSocketRequestBody body)
    {
        var socket = new ClientWebSocket();
        _socket = socket;
        try
        {
            socket.Options.CollectHttpResponseDetails = true;
            socket.Options.AddSubProtocol(Method.Settings.WebSocketSubprotocol);
            foreach (var entry in Options.Headers ?? [])
            {
                socket.Options.SetRequestHeader(entry.Key, entry.IsBinary ? Convert.ToBase64String(entry.ValueBytes) : entry.Value);
            }

            if (StartDeadline() is { } timeout)
            {
                var protocol = Method.Settings.Protocol;
                socket.Options.SetRequestHeader(protocol.TimeoutHeader, protocol.TimeoutValue(timeout));
            }

            try
            {
                await socket.ConnectAsync(WebSocketUri(Method.Uri), CallToken).ConfigureAwait(false);
            }
            catch (WebSocketException ex) when (socket.HttpStatusCode != 0)
            {
                throw Error(StatusMapping.FromHttpStatus((int)socket.HttpStatusCode),
                    $"{Method.Uri} refused the WebSocket for {Method.FullName} with {(int)socket.HttpStatusCode}.", ex);
            }

            SetHeaders(HeaderMetadata.FromWebSocket(socket.HttpResponseHeaders));
            _envelopes = new ResponseEnvelopeReader(new WebSocketResponseStream(socket), EnvelopeFraming.Native, Method.Settings.Writer, Method.Settings.MaxResponseSize, gzip: false);
            body.Open(socket);
            if (Outcome is not null)
            {
                Release();
            }
        }
        catch (Exception ex)
        {
            Fail(ex);
            Release();
        }
    }

    private static Uri WebSocketUri(Uri uri) =>
        new UriBuilder(uri) { Scheme = uri.Scheme == Uri.UriSchemeHttps ? Uri.UriSchemeWss : Uri.UriSchemeWs }.Uri;

    /// <summary>Sends the request and reads up to the start of the response stream. Never throws: a failure is the call's outcome.</summary>
    private async Task OpenAsync(HttpClient httpClient, HttpContent content)
    {
        try
        {
            await OpenCoreAsync(httpClient, content).ConfigureAwait(false);
            if (Outcome is not null)
            {
                Release(); // The call ended meanwhile (its request stream failed): nobody will read this response.
            }
        }
        catch (Exception ex)
        {
            Fail(ex);
            Release();
        }
    }

    private async Task OpenCoreAsync(HttpClient httpClient, HttpContent content)
    {
        var protocol = Method.Settings.Protocol;
        var request = CreateRequest(httpClient, content);
        protocol.PrepareStream(request);
        var resumable = _resumeClient is not null && protocol.ResumesStreams;
        if (resumable)
        {
            // Each message's event id, so that a broken stream resumes after the last one read (docs/protocol.md,
            // "Topics: streams that resume"); a stream that is not a topic's has none, and never resumes.
            request.Headers.TryAddWithoutValidation(Envelope.EventIdsHeader, "1");
            if (_lastEventId is not null)
            {
                request.Headers.TryAddWithoutValidation("Last-Event-ID", _lastEventId);
            }
        }

        if (_duplex && request.Version < HttpVersion.Version20)
        {
            // Both directions at once need HTTP/2; over http:// that is h2c with prior knowledge, so no fallback.
            request.Version = HttpVersion.Version20;
            request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
            _http2Required = true;
        }

        var response = await httpClient.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, CallToken).ConfigureAwait(false);
        _response = response;
        SetHeaders(HeaderMetadata.FromResponse(response, withTrailers: false));
        _envelopes = await protocol.OpenResponseStreamAsync(response, Method, resumable, CallToken).ConfigureAwait(false);
    }

    private HttpContent RequestContent() => Method.Settings.Protocol.StreamRequestContent((IMessage)_resumeRequest!);

    /// <summary>
    /// Whether a server stream that broke (its connection lost, or its server stopping with <c>UNAVAILABLE</c>) can go
    /// on: it is a topic's (its messages have event ids) and the caller has not cancelled.
    /// </summary>
    private bool CanResume(Exception exception) =>
        _resumeClient is not null && _lastEventId is not null && !CallToken.IsCancellationRequested && !_readCancelled
        && exception is IOException or HttpRequestException or RpcException { StatusCode: StatusCode.Unavailable };

    /// <summary>
    /// Sends the request again with <c>Last-Event-ID</c>, as an <c>EventSource</c> does, to whichever instance answers:
    /// the server replays what was missed, then goes on live. Gives up after a few attempts spaced further apart.
    /// </summary>
    private async Task<bool> ResumeAsync()
    {
        for (var attempt = 0; attempt < MaxResumeAttempts; attempt++)
        {
            Interlocked.Exchange(ref _envelopes, null)?.Complete();
            Interlocked.Exchange(ref _response, null)?.Dispose();
            try
            {
                await Task.Delay(ResumeBackoff * ((1 << attempt) - 1), CallToken).ConfigureAwait(false);
                await OpenCoreAsync(_resumeClient!, RequestContent()).ConfigureAwait(false);
                return true;
            }
            catch (Exception ex) when (!CallToken.IsCancellationRequested && ex is not RpcException { StatusCode: not StatusCode.Unavailable })
            {
                // That instance did not answer either: the next attempt may reach another. An answer with another
                // status is the server's word (OUT_OF_RANGE: what was missed is no longer kept) and ends the call.
            }
        }

        return false;
    }

    /// <summary>A client-streaming call's one response: exactly one message, then the end-stream message.</summary>
    private async Task<TResponse> ReadOnlyMessageAsync()
    {
        // Marked as a read, so Dispose leaves the response to it rather than pulling it away mid-read.
        Volatile.Write(ref _reading, 1);
        try
        {
            return await ReadNextAsync(single: true).ConfigureAwait(false)
                ?? throw Error(StatusCode.Internal, $"{Method.FullName} ended without its response message."); // Not reached: ReadNextAsync throws first.
        }
        finally
        {
            Volatile.Write(ref _reading, 0);
        }
    }

    /// <summary>
    /// The next message, or <see langword="null"/> at the end of a successful stream; with <paramref name="single"/>,
    /// the one message of a client-streaming call, the stream's end read too.
    /// </summary>
    private async Task<TResponse?> ReadNextAsync(bool single)
    {
        await _opened.ConfigureAwait(false);
        if (Failure is { } failure)
        {
            throw failure;
        }

        while (true)
        {
            if (_envelopes is not { } envelopes)
            {
                return null; // The stream ended before.
            }

            Exception broken;
            try
            {
                var message = await envelopes.ReadAsync(Method.ResponseDescriptor, CallToken).ConfigureAwait(false);
                _lastEventId = envelopes.LastEventId ?? _lastEventId;
                if (!single && message is not null)
                {
                    return (TResponse)message;
                }

                if (single && message is not null && await envelopes.ReadAsync(Method.ResponseDescriptor, CallToken).ConfigureAwait(false) is not null)
                {
                    throw Error(StatusCode.Internal, $"The server answered {Method.FullName}, a client-streaming method, with more than one message.");
                }

                if (envelopes.Error is { } error)
                {
                    throw error;
                }

                if (single && message is null)
                {
                    throw Error(StatusCode.Internal, $"The server ended {Method.FullName}, a client-streaming method, without its response message.");
                }

                Succeed(envelopes.Trailers!);
                Release();
                return (TResponse?)message;
            }
            catch (Exception ex) when (CanResume(ex))
            {
                broken = ex;
            }
            catch (Exception ex)
            {
                var rpc = Fail(ex);
                Release();
                throw rpc;
            }

            bool resumed;
            try
            {
                resumed = await ResumeAsync().ConfigureAwait(false);
            }
            catch (RpcException answered)
            {
                var rpc = Fail(answered);
                Release();
                throw rpc;
            }

            if (!resumed)
            {
                var rpc = Fail(broken);
                Release();
                throw rpc;
            }
        }
    }

    /// <summary>Lets go of the response and ends the request body, once the call has its outcome.</summary>
    private void Release()
    {
        _requestBody?.Abort();
        Interlocked.Exchange(ref _envelopes, null)?.Complete();
        Interlocked.Exchange(ref _response, null)?.Dispose();
        if (Interlocked.Exchange(ref _socket, null) is { } socket)
        {
            CloseSocket(socket);
        }
    }

    /// <summary>Answers the server's close after the end envelope (the handshake it waits for), or drops a socket the call left early.</summary>
    private static void CloseSocket(ClientWebSocket socket)
    {
        if (socket.State != WebSocketState.CloseReceived)
        {
            socket.Abort();
            socket.Dispose();
            return;
        }

        _ = socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None)
            .ContinueWith(static (_, state) => ((ClientWebSocket)state!).Dispose(), socket, TaskScheduler.Default);
    }
}

using Google.Protobuf;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// One unary call: sends the request, turns the answer or the failure into the call's outcome, and keeps the
/// status, headers and trailers the generated client's <see cref="AsyncUnaryCall{TResponse}"/> asks for.
/// </summary>
internal sealed class UnaryCall<TRequest, TResponse> : IDisposable
    where TRequest : class
    where TResponse : class
{
    private const string ConnectTimeoutHeader = "Connect-Timeout-Ms";

    // The header allows 10 digits (PROTOCOL.md section 6).
    private const long MaxTimeoutMs = 9_999_999_999;

    private readonly ClientMethod<TRequest, TResponse> _method;
    private readonly CallOptions _options;
    private readonly TaskCompletionSource<Metadata> _headers = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly CancellationTokenSource _cancellation;
    private Status? _status;
    private Metadata? _trailers;
    private bool _deadlinePassed;
    private volatile bool _disposed;

    private UnaryCall(ClientMethod<TRequest, TResponse> method, CallOptions options)
    {
        _method = method;
        _options = options;
        _cancellation = CancellationTokenSource.CreateLinkedTokenSource(options.CancellationToken);
    }

    public static AsyncUnaryCall<TResponse> Start(HttpClient httpClient, ClientMethod<TRequest, TResponse> method, CallOptions options, TRequest request)
    {
        var call = new UnaryCall<TRequest, TResponse>(method, options);
        var response = call.RunAsync(httpClient, request);
        return new AsyncUnaryCall<TResponse>(
            response,
            static state => ((UnaryCall<TRequest, TResponse>)state)._headers.Task,
            static state => ((UnaryCall<TRequest, TResponse>)state).GetStatus(),
            static state => ((UnaryCall<TRequest, TResponse>)state).GetTrailers(),
            static state => ((UnaryCall<TRequest, TResponse>)state).Dispose(),
            call);
    }

    public void Dispose()
    {
        // Disposing a call that is still running cancels it, as gRPC's does.
        if (_status is null)
        {
            _disposed = true;
            try
            {
                _cancellation.Cancel();
            }
            catch (ObjectDisposedException)
            {
                // The call finished meanwhile.
            }
        }
    }

    private Status GetStatus() =>
        _status ?? throw new InvalidOperationException("The call has no status yet: it is still running.");

    private Metadata GetTrailers() =>
        _trailers ?? throw new InvalidOperationException("The call has no trailers yet: it is still running.");

    private async Task<TResponse> RunAsync(HttpClient httpClient, TRequest request)
    {
        HttpResponseMessage? response = null;
        try
        {
            using var httpRequest = CreateRequest(httpClient, request);
            var token = _cancellation.Token;
            response = await httpClient.SendAsync(httpRequest, HttpCompletionOption.ResponseHeadersRead, token).ConfigureAwait(false);

            // ProtoHttp servers send the service's trailers as headers (there are no HTTP trailers on HTTP/1.1),
            // so both views start from the response headers; real HTTP trailers join once the body has been read.
            // Connect servers send them as headers too, each named trailer- and the key.
            var connect = _method.Settings.Protocol == ClientProtocol.Connect;
            _headers.TrySetResult(connect ? HeaderMetadata.FromConnectResponse(response, trailers: false) : HeaderMetadata.FromResponse(response, withTrailers: false));
            if (!response.IsSuccessStatusCode)
            {
                throw connect
                    ? await ConnectErrorReader.ReadAsync(response, HeaderMetadata.FromConnectResponse(response, trailers: true), token).ConfigureAwait(false)
                    : await ResponseReader.ReadErrorAsync(response, _method.Settings.Codecs, HeaderMetadata.FromResponse(response, withTrailers: true), token).ConfigureAwait(false);
            }

            var message = await ResponseReader.ReadMessageAsync(response, _method, token).ConfigureAwait(false);
            _trailers = connect ? HeaderMetadata.FromConnectResponse(response, trailers: true) : HeaderMetadata.FromResponse(response, withTrailers: true);
            _status = Status.DefaultSuccess;
            return message;
        }
        catch (Exception ex)
        {
            var rpc = ToRpcException(ex);
            _trailers = rpc.Trailers;
            _status = rpc.Status;
            if (_headers.TrySetException(rpc))
            {
                _ = _headers.Task.Exception; // Observed: a caller that never asks for headers must not see it surface later.
            }

            throw rpc;
        }
        finally
        {
            response?.Dispose();
            _cancellation.Dispose();
        }
    }

    private HttpRequestMessage CreateRequest(HttpClient httpClient, TRequest request)
    {
        var settings = _method.Settings;
        var httpRequest = new HttpRequestMessage(HttpMethod.Post, _method.Uri)
        {
            // Honour the HttpClient's choice of HTTP version, which requests built by hand do not get by default.
            Version = httpClient.DefaultRequestVersion,
            VersionPolicy = httpClient.DefaultVersionPolicy,
            Content = new MessageContent((IMessage)request, settings.Writer, settings.ContentType),
        };

        if (settings.Protocol == ClientProtocol.Connect)
        {
            // A Connect answer comes in the request's codec; the version header tells the server which protocol this is.
            httpRequest.Headers.TryAddWithoutValidation("Connect-Protocol-Version", "1");
        }
        else
        {
            httpRequest.Headers.TryAddWithoutValidation("Accept", settings.Accept);
        }
        if (_options.Headers is { Count: > 0 } metadata)
        {
            HeaderMetadata.AddToRequest(metadata, httpRequest.Headers);
        }

        if (_options.Deadline is { } deadline && deadline != DateTime.MaxValue)
        {
            var remaining = deadline.ToUniversalTime() - DateTime.UtcNow;
            if (remaining <= TimeSpan.Zero)
            {
                _deadlinePassed = true;
                throw new OperationCanceledException();
            }

            // Rounded up: a server must never see a shorter deadline than the client keeps.
            var milliseconds = Math.Min((long)Math.Ceiling(remaining.TotalMilliseconds), MaxTimeoutMs);
            httpRequest.Headers.TryAddWithoutValidation(ConnectTimeoutHeader, milliseconds.ToString(System.Globalization.CultureInfo.InvariantCulture));
            if (milliseconds <= int.MaxValue)
            {
                _cancellation.CancelAfter(TimeSpan.FromMilliseconds(milliseconds));
            }
        }

        return httpRequest;
    }

    // Once the call's token has fired, whatever the transport threw is only the shape that cancellation took.
    private RpcException ToRpcException(Exception exception) => exception switch
    {
        RpcException rpc => rpc,
        _ when _options.CancellationToken.IsCancellationRequested =>
            Failure(StatusCode.Cancelled, $"{_method.FullName} was cancelled by its CancellationToken."),
        _ when _disposed =>
            Failure(StatusCode.Cancelled, $"{_method.FullName} was disposed before it completed."),
        _ when _deadlinePassed || _cancellation.IsCancellationRequested =>
            Failure(StatusCode.DeadlineExceeded, $"The deadline passed before {_method.FullName} returned."),
        OperationCanceledException { InnerException: TimeoutException } =>
            Failure(StatusCode.DeadlineExceeded, $"The HttpClient's Timeout passed before {_method.FullName} returned."),
        HttpRequestException { HttpRequestError: HttpRequestError.ConnectionError or HttpRequestError.NameResolutionError or HttpRequestError.SecureConnectionError } =>
            Failure(StatusCode.Unavailable, $"{_method.Uri} could not be reached: {exception.Message}", exception),
        HttpRequestException or IOException =>
            Failure(StatusCode.Unavailable, $"The connection to {_method.Uri} failed during the call: {exception.Message}", exception),
        _ => Failure(StatusCode.Internal, $"{_method.FullName} failed in the client: {exception.Message}", exception),
    };

    private static RpcException Failure(StatusCode code, string detail, Exception? inner = null) =>
        new(new Status(code, detail, inner));
}

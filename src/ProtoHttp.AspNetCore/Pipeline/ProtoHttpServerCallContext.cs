using System.Net.Sockets;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;
using ProtoHttp.AspNetCore.Negotiation;
using ProtoHttp.AspNetCore.Telemetry;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// One call, from its request to its last byte, as grpc-dotnet's <c>HttpContextServerCallContext</c>: the
/// <see cref="ServerCallContext"/> the service sees, and all the call's state the lifecycle and the protocol share: the
/// route it came in on, its deadline and telemetry, whether a failure now is the app's or ProtoHttp's, how its request
/// is read and its answer written, and its streams. One object per call; nothing is threaded through locals.
/// </summary>
internal sealed class ProtoHttpServerCallContext(HttpContext httpContext, CallRoute route) : ServerCallContext
{
    /// <summary>
    /// The <see cref="ServerCallContext.UserState"/> key under which grpc-dotnet's <c>GetHttpContext()</c> looks for the
    /// <see cref="HttpContext"/> of a context that is not its own, so that extension works on ProtoHttp calls too.
    /// </summary>
    public const string HttpContextKey = "__HttpContext";

    // The object stays small (one per call, BENCHMARKS.md's 100 bytes): what most calls never use is in _onDemand.
    private OnDemandCallState? _onDemand;

    // The request's token as the call's deadline started, which the call runs under when it has no timeout. Read once:
    // over HTTP/2 a RequestAborted read later in the call can be one that no longer fires when the client resets the
    // stream (the typed client's StreamLifetimeTests.DisposingAClientStreamingCallCancelsIt).
    private CancellationToken _requestAborted;

    public HttpContext HttpContext { get; } = httpContext;

    /// <summary>The endpoint the call came in on: its protocol, method and route options.</summary>
    public CallRoute Route { get; } = route;

    /// <summary>How long the call may take (the client's timeout or the host's), for the text of a missed deadline.</summary>
    public TimeSpan? Timeout => _onDemand?.Deadline?.Timeout;

    /// <summary>Whether the call's deadline passed (the client's or the host's), as opposed to the client going away.</summary>
    public bool DeadlineExpired => _onDemand is { } state && (state.HostTimeoutExpired || state.Deadline is { Expired: true });

    /// <summary>
    /// Whether what fails now fails in the app's code (the service, its interceptors, their activation) rather than
    /// in ProtoHttp's reading, binding or writing: <see cref="CallErrors"/> blames and logs accordingly.
    /// </summary>
    public bool FromService { get; set; }

    /// <summary>
    /// The call's exchange in its protocol (<see cref="CallProtocol.Accept"/>'s answer): how its request is read, its
    /// answer written, how it ends and fails; null until the protocol accepted the call. A protocol that learns the
    /// answer's type only from the request message (Connect's unary calls) moves the call to the exchange that knows
    /// it, so the handler asks for it again before writing. A unary call's exchange is shared by the route's calls.
    /// </summary>
    public CallExchange? Exchange { get; set; }

    /// <summary>
    /// The type an error status and body go out in before the answer started (<see cref="CallExchange.ErrorType"/>),
    /// or what the route's suffix forces before the call has an exchange; null where the request decides
    /// (<see cref="ErrorFormat"/>). A 406 for a format nobody accepts is told in a format the protocol chooses (<see cref="CallFailure.NoAcceptedFormat"/>).
    /// </summary>
    public WritableMediaType? ErrorType => Exchange is { } exchange ? exchange.ErrorType(Route) : Route.ErrorType;

    /// <summary>Whether the service set response trailers, without making the collection.</summary>
    public bool HasResponseTrailers => _onDemand?.ResponseTrailers is { Count: > 0 };

    /// <summary>The service's trailers, or <see langword="null"/> when it set none.</summary>
    public Metadata? TrailersOrNull => HasResponseTrailers ? _onDemand!.ResponseTrailers : null;

    protected override string MethodCore => Route.Method.FullName;

    private OnDemandCallState OnDemand => _onDemand ??= new();

    protected override string HostCore => HttpContext.Request.Host.Value ?? string.Empty;

    protected override string PeerCore
    {
        get
        {
            var connection = HttpContext.Connection;
            return connection.RemoteIpAddress switch
            {
                null => "unknown",
                { AddressFamily: AddressFamily.InterNetworkV6 } address => $"ipv6:[{address}]:{connection.RemotePort}",
                var address => $"ipv4:{address}:{connection.RemotePort}",
            };
        }
    }

    protected override DateTime DeadlineCore => _onDemand?.Deadline?.Utc ?? DateTime.MaxValue;

    protected override Metadata RequestHeadersCore => OnDemand.RequestHeaders ??= HeaderMetadata.FromRequest(HttpContext.Request.Headers);

    protected override CancellationToken CancellationTokenCore =>
        _onDemand?.Deadline?.Token ?? (_requestAborted.CanBeCanceled ? _requestAborted : HttpContext.RequestAborted);

    protected override Metadata ResponseTrailersCore => OnDemand.ResponseTrailers ??= [];

    // Read on every call (ServiceReturned) without making the state: default(Status) is OK.
    protected override Status StatusCore
    {
        get => _onDemand?.Status ?? default;
        set => OnDemand.Status = value;
    }

    protected override WriteOptions? WriteOptionsCore
    {
        get => _onDemand?.WriteOptions;
        set => OnDemand.WriteOptions = value;
    }

    // Made only when asked for: most services never look, and every call would pay for it.
    protected override AuthContext AuthContextCore => OnDemand.AuthContext ??= PeerAuthContext.For(HttpContext.Connection.ClientCertificate);

    // Made only when asked for, like the rest; grpc-dotnet's GetHttpContext() asks, and finds the HttpContext there.
    protected override IDictionary<object, object> UserStateCore => OnDemand.UserState ??= new() { [HttpContextKey] = HttpContext };

    /// <summary>Starts the call's telemetry; ended by <see cref="EndAsync"/>.</summary>
    public void StartTelemetry()
    {
        if (CallTelemetry.Start(this) is { } scope)
        {
            OnDemand.Telemetry = scope;
        }
    }

    /// <summary>
    /// Starts the deadline of the client's <paramref name="timeout"/> (none when null) or the host's, whichever is sooner:
    /// from here on the call runs under its token.
    /// </summary>
    public void StartDeadline(TimeSpan? timeout)
    {
        _requestAborted = HttpContext.RequestAborted;
        var deadline = CallDeadline.Start(HttpContext, timeout, streaming: Route.Kind != MethodType.Unary, out var hostExpired);
        if (deadline is not null || hostExpired)
        {
            OnDemand.Deadline = deadline;
            OnDemand.HostTimeoutExpired = hostExpired;
        }
    }

    /// <summary>
    /// The service returned: what fails from here on is ProtoHttp's again. A status the service set instead of
    /// throwing is its answer.
    /// </summary>
    /// <exception cref="RpcException">The service set a status other than OK.</exception>
    public void ServiceReturned()
    {
        FromService = false;
        if (StatusCore.StatusCode != StatusCode.OK)
        {
            throw new RpcException(StatusCore);
        }
    }

    /// <summary>Ends the call: its telemetry with <paramref name="code"/>, what its exchange opened (its streams), its deadline.</summary>
    public ValueTask EndAsync(StatusCode code)
    {
        _onDemand?.Telemetry?.Stop(this, code);
        var ended = Exchange?.EndAsync() ?? ValueTask.CompletedTask;
        if (!ended.IsCompletedSuccessfully)
        {
            return EndAfterAsync(ended);
        }

        ended.GetAwaiter().GetResult();
        _onDemand?.Deadline?.Dispose();
        return ValueTask.CompletedTask;
    }

    protected override ContextPropagationToken CreatePropagationTokenCore(ContextPropagationOptions? options) =>
        throw new NotSupportedException("ProtoHttp calls do not propagate context to child gRPC calls.");

    protected override Task WriteResponseHeadersAsyncCore(Metadata responseHeaders)
    {
        if (Exchange is { } exchange)
        {
            exchange.WriteResponseHeaders(this, responseHeaders);
        }
        else
        {
            CallExchange.AddToHttpHeaders(this, responseHeaders);
        }

        return Task.CompletedTask;
    }

    private async ValueTask EndAfterAsync(ValueTask ended)
    {
        await ended;
        _onDemand?.Deadline?.Dispose();
    }
}

using System.Net.Sockets;
using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>The <see cref="ServerCallContext"/> a service sees when called over ProtoHttp.</summary>
internal sealed class ProtoHttpServerCallContext(HttpContext httpContext, string method, DateTime deadline, CancellationToken cancellationToken)
    : ServerCallContext
{
    /// <summary>
    /// The <see cref="ServerCallContext.UserState"/> key under which grpc-dotnet's <c>GetHttpContext()</c> looks for the
    /// <see cref="HttpContext"/> of a context that is not its own, so that extension works on ProtoHttp calls too.
    /// </summary>
    public const string HttpContextKey = "__HttpContext";

    private Metadata? _requestHeaders;
    private Metadata? _responseTrailers;
    private AuthContext? _authContext;
    private Dictionary<object, object>? _userState;

    public HttpContext HttpContext { get; } = httpContext;

    /// <summary>Whether the service set response trailers, without making the collection.</summary>
    public bool HasResponseTrailers => _responseTrailers is { Count: > 0 };

    protected override string MethodCore { get; } = method;

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

    protected override DateTime DeadlineCore { get; } = deadline;

    protected override Metadata RequestHeadersCore => _requestHeaders ??= HeaderMetadata.FromRequest(HttpContext.Request.Headers);

    protected override CancellationToken CancellationTokenCore { get; } = cancellationToken;

    protected override Metadata ResponseTrailersCore => _responseTrailers ??= [];

    protected override Status StatusCore { get; set; }

    protected override WriteOptions? WriteOptionsCore { get; set; }

    // Made only when asked for: most services never look, and every call would pay for it.
    protected override AuthContext AuthContextCore => _authContext ??= PeerAuthContext.For(HttpContext.Connection.ClientCertificate);

    // Made only when asked for, like the rest; grpc-dotnet's GetHttpContext() asks, and finds the HttpContext there.
    protected override IDictionary<object, object> UserStateCore => _userState ??= new() { [HttpContextKey] = HttpContext };

    protected override ContextPropagationToken CreatePropagationTokenCore(ContextPropagationOptions? options) =>
        throw new NotSupportedException("ProtoHttp calls do not propagate context to child gRPC calls.");

    protected override Task WriteResponseHeadersAsyncCore(Metadata responseHeaders)
    {
        if (HttpContext.Response.HasStarted)
        {
            throw new InvalidOperationException("Response headers can only be written once, before the response.");
        }

        HeaderMetadata.AddToResponse(responseHeaders, HttpContext.Response.Headers);
        return Task.CompletedTask;
    }
}

using System.Net;
using System.Net.Http.Headers;
using Google.Protobuf;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.SignalR.Client;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.Bench.Streams;

namespace StreamLoad;

/// <summary>The two server addresses and the clients every measurement shares: one for HTTP/1.1, one for h2c.</summary>
internal sealed class Peers : IDisposable
{
    public Peers(Uri http1, Uri h2c)
    {
        Http1Address = http1;
        H2cAddress = h2c;
        Http1 = CreateClient(http1, HttpVersion.Version11);
        H2c = CreateClient(h2c, HttpVersion.Version20);
    }

    public Uri Http1Address { get; }

    public Uri H2cAddress { get; }

    /// <summary>HTTP/1.1, one connection per concurrent stream, no limit on connections.</summary>
    public HttpClient Http1 { get; }

    /// <summary>HTTP/2 with prior knowledge; more connections once one has as many streams as the server allows.</summary>
    public HttpClient H2c { get; }

    public static HttpClient CreateClient(Uri address, Version version) => new(new SocketsHttpHandler
    {
        AutomaticDecompression = DecompressionMethods.None,
        UseProxy = false,
        UseCookies = false,
        MaxConnectionsPerServer = int.MaxValue,
        EnableMultipleHttp2Connections = true,
        ConnectTimeout = TimeSpan.FromSeconds(60),
        PooledConnectionIdleTimeout = TimeSpan.FromMinutes(10),
    })
    {
        BaseAddress = address,
        DefaultRequestVersion = version,
        DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        Timeout = Timeout.InfiniteTimeSpan,
    };

    /// <summary>A request whose body is <paramref name="message"/> as protobuf, or framed (gRPC, Connect streaming).</summary>
    public static HttpRequestMessage Post(string path, IMessage message, string contentType, string accept, bool framed)
    {
        var bytes = message.ToByteArray();
        var content = new ByteArrayContent(framed ? EnvelopeReader.Frame(bytes) : bytes);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
        if (accept.Length > 0)
        {
            request.Headers.Accept.ParseAdd(accept);
        }

        if (contentType.StartsWith("application/grpc", StringComparison.Ordinal))
        {
            request.Headers.TE.ParseAdd("trailers");
        }
        else if (contentType.StartsWith("application/connect+", StringComparison.Ordinal))
        {
            request.Headers.Add("Connect-Protocol-Version", "1");
        }

        return request;
    }

    /// <summary>Sends and fails unless the answer is 200: a broken path must never look fast.</summary>
    public static async Task<HttpResponseMessage> SendAsync(HttpClient client, HttpRequestMessage request, CancellationToken cancellationToken)
    {
        // HttpClient's default version applies to its shortcut methods only, not to a request built by hand.
        request.Version = client.DefaultRequestVersion;
        request.VersionPolicy = client.DefaultVersionPolicy;
        var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        if (response.StatusCode != HttpStatusCode.OK)
        {
            var body = await response.Content.ReadAsStringAsync(cancellationToken);
            response.Dispose();
            throw new InvalidOperationException($"{request.Method} {request.RequestUri} answered {(int)response.StatusCode}: {body}");
        }

        return response;
    }

    /// <summary>
    /// A SignalR connection over WebSockets only (no negotiation round trip), in JSON or MessagePack, with the client's
    /// timeouts set for a load tool that holds thousands of connections on one shared core.
    /// </summary>
    /// <param name="messagePack">MessagePack instead of JSON.</param>
    /// <param name="handshakeTimeout">How long the client waits for the server's handshake answer (SignalR's default is
    /// 15 s): while 10,000 clients connect, a late answer is the load tool's queueing, not a failing server.</param>
    /// <param name="path">The hub's path: W4 and W5's push hub unless another is named.</param>
    public HubConnection Hub(bool messagePack, TimeSpan handshakeTimeout, string path = StreamWorkload.HubPath)
    {
        var builder = new HubConnectionBuilder()
            .WithUrl(new Uri(Http1Address, path), HttpTransportType.WebSockets, o => o.SkipNegotiation = true)
            // W5 holds thousands of connections on one core: a busy moment must not look like a dead server.
            .WithServerTimeout(TimeSpan.FromMinutes(2))
            // The server drops a client it has not heard from in 30 s (its ClientTimeoutInterval, left at the default):
            // a ping every 10 s instead of 15 s lets one of them be late on a starved load core.
            .WithKeepAliveInterval(TimeSpan.FromSeconds(10));
        if (messagePack)
        {
            builder.AddMessagePackProtocol();
        }

        var hub = builder.Build();
        hub.HandshakeTimeout = handshakeTimeout;
        return hub;
    }

    public void Dispose()
    {
        Http1.Dispose();
        H2c.Dispose();
    }
}

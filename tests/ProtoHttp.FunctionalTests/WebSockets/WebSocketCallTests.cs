using System.Net;
using System.Net.Sockets;
using System.Net.WebSockets;
using System.Text;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;
using ProtoService;
using SearchService.Streams;

namespace ProtoHttp.FunctionalTests.WebSockets;

/// <summary>
/// Calls over WebSocket (docs/protocol.md section 13) from .NET's ClientWebSocket, over HTTP/1.1 (RFC 6455) and h2c
/// (RFC 8441), against the sample's methods of every kind on real Kestrel.
/// </summary>
public sealed class WebSocketCallTests : IAsyncLifetime
{
    private const string Streams = "/NorthwindStreams.proto/";
    private const string Search = "/ProtoService.proto/Search";

    private SampleServer _server = null!;

    private const string AllowedOrigin = "http://allowed.example";

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        configure: builder =>
        {
            builder.Services.Configure<PriceTickerOptions>(o => o.Interval = TimeSpan.FromMilliseconds(20));
            builder.Services.AddCors(o => o.AddPolicy("page", p => p.WithOrigins(AllowedOrigin)));
            builder.Services.AddRateLimiter(o =>
            {
                o.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
                o.AddFixedWindowLimiter("one-a-minute", w => (w.PermitLimit, w.Window, w.QueueLimit) = (1, TimeSpan.FromMinutes(1), 0));
            });
        },
        map: app =>
        {
            app.MapProtoService<ScriptedTestService>("/cors/test_service.proto").RequireCors("page");
            app.MapProtoService<ScriptedTestService>("/limited/test_service.proto").RequireRateLimiting("one-a-minute");
        });

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync(); // The host has stopped: every request has ended, and every log line of it is in.
        var errors = _server.Logs.Errors.ToList();
        Assert.True(errors.Count == 0, string.Join("\n", errors)); // No call over a socket is a fault of ProtoHttp's.
    }

    private Uri Address(bool http2) => http2 ? _server.Http2Address : _server.Http1Address;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task SearchIsAUnaryCallOverOneSocket(bool http2)
    {
        await using var call = await WebSocketCall.OpenAsync(Address(http2), Search, http2);
        Assert.Equal("protohttp+proto", call.Socket.SubProtocol);

        await call.SendAsync(new SearchRequest { Query = "chai" });
        await call.HalfCloseAsync();
        var (answers, end, close) = await call.ReadToEndAsync(SearchResponse.Parser);

        var answer = Assert.Single(answers);
        Assert.Contains(answer.Result, r => r.Title.Contains("Chai", StringComparison.OrdinalIgnoreCase));
        Assert.False(end.TryGetProperty("error", out _), end.ToString());
        Assert.Equal(WebSocketCloseStatus.NormalClosure, close);
    }

    [Fact]
    public async Task NoSubprotocolOfferedMeansJson()
    {
        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, Search, subprotocols: []);
        Assert.Null(call.Socket.SubProtocol);

        await call.SendEnvelopeAsync(0, Encoding.UTF8.GetBytes("""{"query":"chai"}"""));
        var envelope = await call.ReceiveAsync();

        Assert.NotNull(envelope);
        Assert.Equal(0, envelope.Value.Flags);
        var answer = SearchResponse.Parser.ParseJson(Encoding.UTF8.GetString(envelope.Value.Payload));
        Assert.NotEmpty(answer.Result);
    }

    [Fact]
    public async Task AMissingRequiredFieldEndsTheCallWithInvalidArgument()
    {
        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, Search, subprotocols: ["protohttp+json"]);

        await call.SendEnvelopeAsync(0, "{}"u8.ToArray());
        var (answers, end, close) = await call.ReadToEndAsync(SearchResponse.Parser);

        Assert.Empty(answers);
        Assert.Equal("invalid_argument", end.GetProperty("error").GetProperty("code").GetString());
        Assert.Contains("query", end.GetProperty("error").GetProperty("message").GetString(), StringComparison.Ordinal);
        Assert.Equal(WebSocketCloseStatus.NormalClosure, close);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task UploadOrdersSumsWhatCameBeforeTheHalfClose(bool http2)
    {
        await using var call = await WebSocketCall.OpenAsync(Address(http2), Streams + "UploadOrders", http2);

        for (var i = 0; i < 3; i++)
        {
            await call.SendAsync(new Order { OrderId = i, Lines = { new OrderLine { ProductId = 1, Quantity = 2, UnitPrice = 10 } } });
        }

        await call.HalfCloseAsync();
        var (answers, end, _) = await call.ReadToEndAsync(UploadSummary.Parser);

        var summary = Assert.Single(answers);
        Assert.Equal(3, summary.Orders);
        Assert.Equal(3, summary.Lines);
        Assert.Equal(60, summary.Total, 3);
        Assert.False(end.TryGetProperty("error", out _));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task QuoteLinesAnswersEachLineBeforeTheNextIsSent(bool http2)
    {
        await using var call = await WebSocketCall.OpenAsync(Address(http2), Streams + "QuoteLines", http2);

        // Each quote arrives while the request stream is still open: both directions at once, over HTTP/1.1 too.
        for (var quantity = 1; quantity <= 3; quantity++)
        {
            await call.SendAsync(new OrderLine { ProductId = 1, Quantity = quantity });
            var quote = await call.ReceiveMessageAsync(Quote.Parser);
            Assert.Equal(1, quote.ProductId);
            Assert.Equal(quantity, quote.Quantity);
            Assert.True(quote.UnitPrice > 0);
        }

        await call.HalfCloseAsync();
        var (rest, end, close) = await call.ReadToEndAsync(Quote.Parser);
        Assert.Empty(rest);
        Assert.False(end.TryGetProperty("error", out _));
        Assert.Equal(WebSocketCloseStatus.NormalClosure, close);
    }

    [Fact]
    public async Task TheServicesErrorIsTheEndEnvelopesError()
    {
        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, Streams + "QuoteLines");

        await call.SendAsync(new OrderLine { ProductId = 1, Quantity = 1 });
        await call.SendAsync(new OrderLine { ProductId = 999_999, Quantity = 1 });
        var (quotes, end, close) = await call.ReadToEndAsync(Quote.Parser);

        Assert.Single(quotes);
        Assert.Equal("not_found", end.GetProperty("error").GetProperty("code").GetString());
        Assert.Equal("There is no product 999999.", end.GetProperty("error").GetProperty("message").GetString());
        Assert.Equal(WebSocketCloseStatus.NormalClosure, close);
    }

    [Theory]
    [InlineData(false, "?timeout_ms=400")]
    [InlineData(true, "?timeout_ms=400")]
    [InlineData(false, "")]
    public async Task WatchPricesStreamsUntilItsDeadline(bool http2, string query)
    {
        await using var call = await WebSocketCall.OpenAsync(Address(http2), Streams + "WatchPrices" + query, http2,
            configure: query.Length == 0 ? o => o.SetRequestHeader("Connect-Timeout-Ms", "400") : null);

        await call.SendAsync(new PriceWatch());
        await call.HalfCloseAsync();
        var (ticks, end, close) = await call.ReadToEndAsync(PriceTick.Parser);

        Assert.True(ticks.Count > 3, $"{ticks.Count} ticks");
        Assert.All(ticks.Zip(ticks.Skip(1)), pair => Assert.True(pair.Second.Sequence > pair.First.Sequence));
        Assert.Equal("deadline_exceeded", end.GetProperty("error").GetProperty("code").GetString());
        Assert.Equal(WebSocketCloseStatus.NormalClosure, close);
    }

    [Fact]
    public async Task AClientThatClosesEndsTheServerStream()
    {
        var watching = _server.Services.GetRequiredService<PriceTicker>();
        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, Streams + "WatchPrices");
        await call.SendAsync(new PriceWatch());
        await call.ReceiveMessageAsync(PriceTick.Parser);

        await call.Socket.CloseOutputAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);

        // The call ends at once: its subscription to the feed goes away; the ticker's own reader of the topic stays.
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (watching.Ticks.SubscriberCount > 1 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(20);
        }

        Assert.Equal(1, watching.Ticks.SubscriberCount);
    }

    [Fact]
    public async Task TheUpgradesHeadersAreTheCallsMetadata()
    {
        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, "/test_service.proto/Context",
            configure: o => o.SetRequestHeader("x-tenant", "north"));

        await call.SendAsync(new ContextRequest { ResponseHeaders = { ["x-answered"] = "yes" } });
        var reply = await call.ReceiveMessageAsync(ContextReply.Parser);
        var (_, end, _) = await call.ReadToEndAsync(ContextReply.Parser);

        Assert.Equal("north", reply.RequestHeaders["x-tenant"]);
        Assert.Equal("/test_service.proto/Context", reply.HttpPath);
        // Headers the service writes after the handshake travel in the end envelope's metadata.
        Assert.Equal("yes", end.GetProperty("metadata").GetProperty("x-answered")[0].GetString());
    }

    [Fact]
    public async Task OnlyUnknownSubprotocolsAre400NamingTheHeader()
    {
        Assert.Equal(HttpStatusCode.BadRequest, await WebSocketCall.RefusedStatusAsync(_server.Http1Address, Search, subprotocols: ["graphql-ws"]));

        var (status, body) = await RawUpgradeAsync(Search, "Sec-WebSocket-Protocol: graphql-ws, mqtt");
        Assert.Equal(400, status);
        Assert.Contains("Sec-WebSocket-Protocol", body, StringComparison.Ordinal);
        Assert.Contains("protohttp+json", body, StringComparison.Ordinal);

        // An unknown one beside a known one is no refusal: the known one is chosen.
        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, Search, subprotocols: ["graphql-ws", "protohttp+json"]);
        Assert.Equal("protohttp+json", call.Socket.SubProtocol);
    }

    [Fact]
    public async Task AMalformedTimeoutIs400BeforeTheUpgrade()
    {
        var (status, body) = await RawUpgradeAsync(Search + "?timeout_ms=soon", "");
        Assert.Equal(400, status);
        Assert.Contains("timeout_ms", body, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("http://evil.example", HttpStatusCode.Forbidden)]
    [InlineData(null, HttpStatusCode.SwitchingProtocols)]
    [InlineData("self", HttpStatusCode.SwitchingProtocols)]
    public async Task AnotherSitesPageIsRefused(string? origin, HttpStatusCode expected)
    {
        var header = origin switch
        {
            null => "",
            "self" => $"Origin: {_server.Http1Address.GetLeftPart(UriPartial.Authority)}",
            _ => $"Origin: {origin}",
        };

        var (status, body) = await RawUpgradeAsync(Search, header);

        Assert.Equal((int)expected, status);
        if (expected == HttpStatusCode.Forbidden)
        {
            Assert.Contains("\"code\":\"PERMISSION_DENIED\"", body.Replace(" ", "", StringComparison.Ordinal), StringComparison.Ordinal);
        }
    }

    [Theory]
    [InlineData("/cors/test_service.proto/Context", AllowedOrigin, HttpStatusCode.SwitchingProtocols)]
    [InlineData("/cors/test_service.proto/Context", "http://other.example", HttpStatusCode.Forbidden)]
    [InlineData("/test_service.proto/Context", AllowedOrigin, HttpStatusCode.Forbidden)]
    public async Task AnOriginTheEndpointsCorsPolicyAllowsIsServed(string path, string origin, HttpStatusCode expected)
    {
        var (status, _) = await RawUpgradeAsync(path, $"Origin: {origin}");
        Assert.Equal((int)expected, status);
    }

    [Fact]
    public async Task RateLimitsApplyToUpgrades()
    {
        const string limited = "/limited/test_service.proto/Context";
        await using (var call = await WebSocketCall.OpenAsync(_server.Http1Address, limited))
        {
            await call.SendAsync(new ContextRequest());
            await call.ReceiveMessageAsync(ContextReply.Parser);
        }

        Assert.Equal(HttpStatusCode.TooManyRequests, await WebSocketCall.RefusedStatusAsync(_server.Http1Address, limited));
    }

    [Fact]
    public async Task AnUnauthorizedUpgradeIs401AndAnAuthorizedOneIsServed()
    {
        const string secure = "/secure/test_service.proto/Context";
        Assert.Equal(HttpStatusCode.Unauthorized, await WebSocketCall.RefusedStatusAsync(_server.Http1Address, secure));

        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, secure, configure: o => o.SetRequestHeader("X-Test-User", "ada"));
        await call.SendAsync(new ContextRequest());
        var reply = await call.ReceiveMessageAsync(ContextReply.Parser);
        Assert.Equal("ada", reply.User);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task AMessageOverTheLimitEndsResourceExhaustedAndCloses1009(bool http2)
    {
        // The test service's limit is 64 KiB per message.
        await using var call = await WebSocketCall.OpenAsync(Address(http2), "/test_service.proto/Echo", http2);

        await call.SendAsync(new Tree { Data = ByteString.CopyFrom(new byte[100 * 1024]) });
        var end = await call.ReceiveAsync();
        Assert.NotNull(end);
        Assert.Equal(0x02, end.Value.Flags);
        var json = Encoding.UTF8.GetString(end.Value.Payload);
        Assert.Contains("\"resource_exhausted\"", json, StringComparison.Ordinal);
        Assert.Null(await call.ReceiveAsync());
        Assert.Equal(WebSocketCloseStatus.MessageTooBig, call.Socket.CloseStatus);
    }

    [Fact]
    public async Task ATextMessageIsRefusedInTheEnd()
    {
        await using var call = await WebSocketCall.OpenAsync(_server.Http1Address, Search, subprotocols: ["protohttp+json"]);

        await call.Socket.SendAsync("""{"query":"chai"}"""u8.ToArray(), WebSocketMessageType.Text, true, CancellationToken.None);
        var (_, end, _) = await call.ReadToEndAsync(SearchResponse.Parser);

        Assert.Equal("invalid_argument", end.GetProperty("error").GetProperty("code").GetString());
        Assert.Contains("binary", end.GetProperty("error").GetProperty("message").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task FiftySocketsQuoteAtOnce()
    {
        var calls = await Task.WhenAll(Enumerable.Range(0, 50).Select(i =>
            WebSocketCall.OpenAsync(i % 2 == 0 ? _server.Http1Address : _server.Http2Address, Streams + "QuoteLines", http2: i % 2 == 1)));
        try
        {
            await Task.WhenAll(calls.Select(async (call, i) =>
            {
                for (var n = 1; n <= 5; n++)
                {
                    await call.SendAsync(new OrderLine { ProductId = 1 + (i % 10), Quantity = i * 10 + n });
                    var quote = await call.ReceiveMessageAsync(Quote.Parser);
                    Assert.Equal(i * 10 + n, quote.Quantity);
                }

                await call.HalfCloseAsync();
                var (_, end, _) = await call.ReadToEndAsync(Quote.Parser);
                Assert.False(end.TryGetProperty("error", out _));
            }));
        }
        finally
        {
            foreach (var call in calls)
            {
                await call.DisposeAsync();
            }
        }
    }

    [Fact]
    public async Task APlainGetAtTheSamePathIsStillTheNativeProtocol()
    {
        using var response = await _server.Client.GetAsync(Search + "?query=chai");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.StartsWith("application/json", response.Content.Headers.ContentType?.ToString(), StringComparison.Ordinal);
    }

    /// <summary>An HTTP/1.1 upgrade request as raw bytes: the status and body of a refusal (or 101), which ClientWebSocket hides.</summary>
    private async Task<(int Status, string Body)> RawUpgradeAsync(string pathAndQuery, string extraHeader)
    {
        using var tcp = new TcpClient();
        await tcp.ConnectAsync(_server.Http1Address.Host, _server.Http1Address.Port);
        var stream = tcp.GetStream();
        var request = $"GET {pathAndQuery} HTTP/1.1\r\nHost: {_server.Http1Address.Authority}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + (extraHeader.Length > 0 ? extraHeader + "\r\n" : "") + "\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(request));
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        var received = new MemoryStream();
        var buffer = new byte[4096];
        while (true)
        {
            var text = Encoding.UTF8.GetString(received.ToArray());
            var headerEnd = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            if (headerEnd >= 0)
            {
                var status = int.Parse(text.AsSpan(9, 3), provider: null);
                var lengthLine = text[..headerEnd].Split("\r\n").FirstOrDefault(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase));
                var length = lengthLine is null ? 0 : int.Parse(lengthLine["Content-Length:".Length..].Trim(), provider: null);
                if (status == 101 || received.Length >= headerEnd + 4 + length)
                {
                    return (status, text[(headerEnd + 4)..]);
                }
            }

            var read = await stream.ReadAsync(buffer, timeout.Token);
            if (read == 0)
            {
                throw new IOException("The server closed the connection before its answer ended.");
            }

            received.Write(buffer, 0, read);
        }
    }
}

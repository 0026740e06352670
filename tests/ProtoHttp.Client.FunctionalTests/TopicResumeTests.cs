using System.Net;
using Grpc.Core;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// The typed client on the sample's price feed (a ProtoHttp topic, ticking every 50 ms): when the connection breaks
/// mid-stream, the call goes on by itself, sending the last event id it read as <c>Last-Event-ID</c>, and the caller
/// sees every tick once, in order, as if nothing had happened (docs/protocol.md, "Topics: streams that resume").
/// </summary>
public sealed class TopicResumeTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    [Theory]
    [InlineData(ProtocolNames.ProtoHttp, CodecNames.Protobuf)]
    [InlineData(ProtocolNames.ProtoHttp, CodecNames.Json)]
    [InlineData(ProtocolNames.Connect, CodecNames.Protobuf)]
    [InlineData(ProtocolNames.Connect, CodecNames.Json)]
    public async Task AStreamWhoseConnectionBreaksResumesByItselfWithNothingSkippedOrTwice(string protocol, string format)
    {
        var breaker = new ConnectionBreaker(breakFirst: 2, afterBytes: 300);
        using var http = new HttpClient(breaker);
        var invoker = new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address, Codec = format, Protocol = protocol });
        var client = new NorthwindStreams.NorthwindStreamsClient(invoker);

        var ticks = new List<PriceTick>();
        using (var call = client.WatchPrices(new PriceWatch(), cancellationToken: new CancellationTokenSource(TimeSpan.FromSeconds(60)).Token))
        {
            await foreach (var tick in call.ResponseStream.ReadAllAsync())
            {
                ticks.Add(tick);
                if (ticks.Count == 40)
                {
                    break;
                }
            }
        }

        // One instance ticks, so its sequence numbers count the feed: every one once, none skipped.
        Assert.Equal(Enumerable.Range(0, 40).Select(i => ticks[0].Sequence + i), ticks.Select(t => t.Sequence));
        Assert.Equal(3, breaker.Requests.Count); // The first, then one resume after each break.
        Assert.Null(breaker.Requests[0]);
        Assert.All(breaker.Requests.Skip(1), id => Assert.Matches(@"^\d+-\d+$", id!));
    }

    /// <summary>
    /// Lets the first <c>breakFirst</c> responses through for <c>afterBytes</c> bytes, then fails the read as a dropped
    /// connection does; records the <c>Last-Event-ID</c> of every request.
    /// </summary>
    private sealed class ConnectionBreaker(int breakFirst, int afterBytes) : DelegatingHandler(new SocketsHttpHandler())
    {
        public List<string?> Requests { get; } = [];

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            var lastEventId = request.Headers.TryGetValues("Last-Event-ID", out var values) ? values.Single() : null;
            bool breaks;
            lock (Requests)
            {
                Requests.Add(lastEventId);
                breaks = Requests.Count <= breakFirst;
            }

            var response = await base.SendAsync(request, cancellationToken);
            if (breaks && response.StatusCode == HttpStatusCode.OK)
            {
                var body = await response.Content.ReadAsStreamAsync(cancellationToken);
                var broken = new StreamContent(new BreakingStream(body, afterBytes));
                foreach (var header in response.Content.Headers)
                {
                    broken.Headers.TryAddWithoutValidation(header.Key, header.Value);
                }

                response.Content = broken;
            }

            return response;
        }
    }

    private sealed class BreakingStream(Stream inner, int afterBytes) : ProtoHttp.Client.Internal.ReadOnlyStream
    {
        private int _left = afterBytes;

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            if (_left <= 0)
            {
                inner.Dispose();
                throw new IOException("The connection broke (the test's doing).");
            }

            var read = await inner.ReadAsync(buffer[..Math.Min(buffer.Length, _left)], cancellationToken);
            _left -= read;
            return read;
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                inner.Dispose();
            }

            base.Dispose(disposing);
        }
    }
}

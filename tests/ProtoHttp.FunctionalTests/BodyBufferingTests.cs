using System.Net;
using Google.Protobuf;
using Microsoft.AspNetCore.Hosting;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Bodies on both sides of the size parsed in place in Kestrel's request pipe, over HTTP/1.1 and h2c, with Kestrel's
/// default buffer limits and with the smallest it allows: none may stall waiting for room the pipe will not make.
/// </summary>
public sealed class BodyBufferingTests(SampleServerFixture defaults, BodyBufferingTests.SmallBuffersFixture smallBuffers)
    : IClassFixture<SampleServerFixture>, IClassFixture<BodyBufferingTests.SmallBuffersFixture>
{
    public static TheoryData<int, bool> Sizes()
    {
        var sizes = new TheoryData<int, bool>();
        foreach (var size in new[] { 20_000, 100_000, 300_000, 1_500_000 })
        {
            sizes.Add(size, false);
            sizes.Add(size, true);
        }

        return sizes;
    }

    [Theory]
    [MemberData(nameof(Sizes))]
    public Task EveryBodySizeRoundTripsWithKestrelsDefaults(int size, bool http2) =>
        AssertRoundTripAsync(defaults.Server, size, http2);

    [Theory]
    [MemberData(nameof(Sizes))]
    public Task EveryBodySizeRoundTripsWithKestrelsSmallestBuffers(int size, bool http2) =>
        AssertRoundTripAsync(smallBuffers.Server, size, http2);

    private static async Task AssertRoundTripAsync(SampleServer server, int size, bool http2)
    {
        var body = OrderBodies.OfSize(size).ToByteArray();
        using var client = http2 ? server.CreateHttp2Client() : new HttpClient { BaseAddress = server.Http1Address };
        client.Timeout = TimeSpan.FromSeconds(20); // A stalled upload fails the test instead of hanging it.
        using var content = new ByteArrayContent(body);
        content.Headers.ContentType = new("application/x-protobuf");

        using var response = await client.PostAsync("/Northwind.proto/Roundtrip", content);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(http2 ? HttpVersion.Version20 : HttpVersion.Version11, response.Version);
        Assert.Equal(body, await response.Content.ReadAsByteArrayAsync());
    }

    /// <summary>The sample with the smallest request buffer and HTTP/2 windows Kestrel accepts.</summary>
    public sealed class SmallBuffersFixture : IAsyncLifetime
    {
        private SampleServer? _server;

        public SampleServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

        public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: builder => builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Limits.MaxRequestBufferSize = 32 * 1024; // No smaller than the largest request header allowed.
            kestrel.Limits.Http2.InitialStreamWindowSize = 65_535;
            kestrel.Limits.Http2.InitialConnectionWindowSize = 65_535;
        }));

        public async Task DisposeAsync()
        {
            if (_server is not null)
            {
                await _server.DisposeAsync();
            }
        }
    }
}

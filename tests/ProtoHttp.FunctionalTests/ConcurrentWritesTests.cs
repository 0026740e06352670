using System.Net;
using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Several tasks writing to one response stream at once (docs/protocol.md section 10: writes are one at a time per
/// call): in every framing each record arrives whole, none is lost or doubled, each writer's records keep its order,
/// and the stream ends OK after them.
/// </summary>
public sealed class ConcurrentWritesTests : IAsyncLifetime
{
    private const string Count = "/protohttp.tests.streaming.StreamingService/Count";
    private const int PerWriter = 20;

    // Calls per framing: a race the lock prevents shows in one call or another, not necessarily in the first.
    private const int Calls = 8;

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        mapTestServices: false, map: app => app.MapProtoService<ConcurrentWritesService>());

    public async Task DisposeAsync() => await _server.DisposeAsync();

    public static TheoryData<string> Framings => new(StreamWire.Formats.Append("grpc-web"));

    [Theory]
    [MemberData(nameof(Framings))]
    public async Task EachRecordArrivesWholeOnceAndInItsWritersOrder(string framing)
    {
        for (var call = 0; call < Calls; call++)
        {
            var ticks = await CountAsync(framing);

            Assert.Equal(ConcurrentWritesService.Writers * PerWriter, ticks.Count);
            Assert.All(ticks, tick => Assert.Equal(ConcurrentWritesService.Text(tick.Sequence), tick.Text));
            foreach (var writer in ticks.GroupBy(tick => tick.Sequence / 1000))
            {
                Assert.Equal(Enumerable.Range(writer.Key * 1000, PerWriter), writer.Select(tick => tick.Sequence));
            }

            Assert.Equal(ConcurrentWritesService.Writers, ticks.Select(tick => tick.Sequence / 1000).Distinct().Count());
        }

        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    /// <summary>One call of Count in <paramref name="framing"/>, every record read strictly (whole, parsed by Google.Protobuf), the stream ended OK.</summary>
    private async Task<List<Tick>> CountAsync(string framing)
    {
        var request = new CountRequest { Count = PerWriter };
        if (framing == "grpc-web")
        {
            using var response = await _server.Client.SendAsync(GrpcWebWire.Post(Count, GrpcWebWire.Frame(request)));
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
            Assert.Equal("0", trailers["grpc-status"]);
            return messages.Select(Tick.Parser.ParseFrom).ToList();
        }

        using var call = Wire.Post("/streaming_service.proto/Count", request, "application/json", accept: framing);
        using var streamed = await _server.Client.SendAsync(call, HttpCompletionOption.ResponseHeadersRead);
        Assert.Equal(HttpStatusCode.OK, streamed.StatusCode);
        var (ticks, end) = await StreamWire.ReadAllAsync<Tick>(streamed);
        Assert.Equal("OK", end.Code);
        return ticks;
    }
}

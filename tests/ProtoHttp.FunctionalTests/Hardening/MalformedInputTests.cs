using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Infrastructure;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Thousands of malformed requests, from fixed seeds, against the real server on Kestrel (PROTOCOL.md section 7):
/// every answer is 400, 413 or 415 with an ErrorResult (or 200 when a mutation happens to stay valid), never a 5xx,
/// never an Error log, and the server answers a valid call after every batch.
/// </summary>
public sealed class MalformedInputTests(ITestOutputHelper output) : IAsyncLifetime
{
    private SampleServer _server = null!;
    private FuzzSeeds _seeds = null!;
    private FuzzRunner _runner = null!;

    public async Task InitializeAsync()
    {
        _server = await SampleServer.StartAsync(map: app => app.MapProtoService<SpecimenService>());
        _seeds = await FuzzSeeds.CreateAsync(_server);
        _runner = new FuzzRunner(_server, FuzzSeeds.ResponseParsers);
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public Task Protobuf() => RunAsync("protobuf", ProtobufMutator.Cases(new Random(5001), _seeds.Protobuf, 1_500));

    [Fact]
    public Task Json() => RunAsync("JSON", JsonMutator.Cases(new Random(5002), _seeds.Json, 1_300));

    [Fact]
    public Task Xml() => RunAsync("XML", XmlMutator.Cases(new Random(5003), _seeds.Xml, 1_300));

    [Fact]
    public Task Form() => RunAsync("form", FormMutator.Cases(new Random(5004), FuzzSeeds.Form, 700, query: false));

    [Fact]
    public Task Query() => RunAsync("GET query", FormMutator.Cases(new Random(5005), FuzzSeeds.Form, 700, query: true));

    private async Task RunAsync(string format, IEnumerable<FuzzCase> cases)
    {
        var started = DateTime.UtcNow;
        var report = await _runner.RunAsync(format, cases);

        output.WriteLine($"{report} in {(DateTime.UtcNow - started).TotalSeconds:F1} s");
        foreach (var failure in report.Failures.Take(30))
        {
            output.WriteLine(failure);
        }

        Assert.True(report.Cases >= 700, $"only {report.Cases} cases ran");
        Assert.Empty(report.Failures);
    }
}

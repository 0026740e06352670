using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Infrastructure;
using Xunit.Abstractions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Thousands of malformed requests, from fixed seeds, against the real server on Kestrel (docs/protocol.md section 7):
/// every answer is the refusal the case calls for (400, or 413 past the body limit) with an ErrorResult in the format
/// accepted (or 200 when a mutation happens to stay valid), never a 5xx,
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

    /// <summary>Also the differential check of protobuf reading: every case against Google.Protobuf's parser (<see cref="ProtobufDifferential"/>).</summary>
    [Fact]
    public async Task Protobuf()
    {
        var differential = new ProtobufDifferential();
        await RunAsync("protobuf", ProtobufMutator.Cases(new Random(5001), _seeds.Protobuf, 1_500), 1_500, differential.ObserveAsync);

        output.WriteLine($"Against Google.Protobuf's parser: {differential.Compared} cases compared");
        foreach (var line in differential.Lines().Concat(differential.Differences.Take(20)))
        {
            output.WriteLine(line);
        }

        Assert.True(differential.Differences.Count == 0, $"{differential.Differences.Count} differences from Google.Protobuf's parser; the first: {differential.Differences.FirstOrDefault()}");
        Assert.True(differential.Compared >= 1_400, $"only {differential.Compared} cases were compared against Google.Protobuf's parser");
    }

    /// <summary>
    /// Also the differential check of the JSON reader: every case against JsonParser (<see cref="JsonDifferential"/>),
    /// with 300 more cases aimed at the reader's deliberate departures from it.
    /// </summary>
    [Fact]
    public async Task Json()
    {
        var differential = new JsonDifferential(new JsonReference(FormatOptions.Default.IgnoreUnknownFields, FormatOptions.Default.MaxDepth));
        var cases = JsonMutator.Cases(new Random(5002), _seeds.Json, 1_300).Concat(JsonDepartureMutator.Cases(new Random(5006), _seeds.Json, 300));
        await RunAsync("JSON", cases, 1_600, differential.ObserveAsync);

        output.WriteLine($"Against JsonParser: {differential.Compared} cases compared");
        foreach (var line in differential.Lines())
        {
            output.WriteLine(line);
        }

        foreach (var difference in differential.Differences.Take(20))
        {
            output.WriteLine(difference);
        }

        Assert.True(differential.Differences.Count == 0, $"{differential.Differences.Count} unexplained differences from JsonParser; the first: {differential.Differences.FirstOrDefault()}");

        // All but the few the server could not read (413 past 4 MiB: 24 of 1,629 in docs/soak.md's run) were judged
        // against JsonParser: a differential that compares nothing would pass the line above.
        Assert.True(differential.Compared >= 1_600, $"only {differential.Compared} cases were compared against JsonParser");
    }

    /// <summary>Also 600 generated documents whose answer is known, judged by <see cref="EchoOracle"/>.</summary>
    [Fact]
    public Task Xml() => RunWithEchoesAsync("XML", XmlMutator.Cases(new Random(5003), _seeds.Xml, 1_300), 1_300, EchoCases.Xml(new Random(5007), 600));

    /// <summary>Also 600 generated forms whose answer is known, judged by <see cref="EchoOracle"/>.</summary>
    [Fact]
    public Task Form() => RunWithEchoesAsync("form", FormMutator.Cases(new Random(5004), FuzzSeeds.Form, 700, query: false), 700, EchoCases.Form(new Random(5008), 600, query: false));

    /// <summary>Also 600 generated query strings whose answer is known, judged by <see cref="EchoOracle"/>.</summary>
    [Fact]
    public Task Query() => RunWithEchoesAsync("GET query", FormMutator.Cases(new Random(5005), FuzzSeeds.Form, 700, query: true), 700, EchoCases.Form(new Random(5009), 600, query: true));

    /// <summary>
    /// The blind mutations judged for robustness, and the generated cases for correctness: every valid one echoed equal
    /// to the message it was written from, every wrong one refused naming what is wrong; all of them judged.
    /// </summary>
    private async Task RunWithEchoesAsync(string format, IEnumerable<FuzzCase> mutated, int requested, IEnumerable<FuzzCase> generated)
    {
        var echoCases = generated.ToList();
        var valid = echoCases.Count(c => c.Expectation?.Echo is not null);
        var oracle = new EchoOracle();
        await RunAsync(format, mutated.Concat(echoCases), requested + echoCases.Count, oracle.ObserveAsync);

        output.WriteLine($"Generated cases: {oracle.Echoes} echoes compared, {oracle.Refusals} refusals judged, {oracle.Differences.Count} differences");
        foreach (var difference in oracle.Differences.Take(20))
        {
            output.WriteLine(difference);
        }

        Assert.True(oracle.Differences.Count == 0, $"{oracle.Differences.Count} generated cases answered otherwise than due; the first: {oracle.Differences.FirstOrDefault()}");
        Assert.Equal(valid, oracle.Echoes);
        Assert.Equal(echoCases.Count - valid, oracle.Refusals);
        Assert.True(valid >= 300 && oracle.Refusals >= 100, $"only {valid} valid and {oracle.Refusals} wrong generated cases were judged");
    }

    private async Task RunAsync(string format, IEnumerable<FuzzCase> generated, int requested, Func<FuzzCase, RawResponse, RawHttpConnection, Task>? observe = null)
    {
        var cases = generated.ToList();
        Assert.True(cases.Count >= requested, $"the mutator made {cases.Count} of the {requested} cases asked for"); // JSON's makes a few more.
        var started = DateTime.UtcNow;
        var report = await _runner.RunAsync(format, cases, observe);

        output.WriteLine($"{report} in {(DateTime.UtcNow - started).TotalSeconds:F1} s");
        foreach (var failure in report.Failures.Take(30))
        {
            output.WriteLine(failure);
        }

        // The runner judges every case it sends (one without an answer is a failure): all of them, not a floor.
        Assert.Equal(cases.Count, report.Cases);
        Assert.Empty(report.Failures);
    }
}

using System.Net;
using System.Net.Http.Headers;
using System.Text.Json.Nodes;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.RestStreams;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// Rules on streams (docs/protocol.md section 14), on the Tally mapped both by ProtoHttp and by gRPC JSON transcoding:
/// a rule on a client-streaming or bidirectional method is a startup warning that names the method and the rule, and
/// maps no route, as in transcoding; a server stream's <c>response_body</c> makes each record that field, as
/// transcoding writes it, in every framing.
/// </summary>
public sealed class RestStreamRulesTests : IAsyncLifetime
{
    private WebApplication _protoHttp = null!;
    private WebApplication _transcoding = null!;

    private LogSink OurLogs { get; } = new();

    private LogSink TheirLogs { get; } = new();

    private HttpClient Ours { get; set; } = null!;

    private HttpClient Theirs { get; set; } = null!;

    public async Task InitializeAsync()
    {
        _protoHttp = await RestServers.StartAsync(
            builder =>
            {
                builder.Logging.AddProvider(OurLogs);
                builder.Services.AddProtoHttp();
            },
            app => app.MapProtoService<TallyService>());
        _transcoding = await RestServers.StartAsync(
            builder =>
            {
                builder.Logging.AddProvider(TheirLogs);
                builder.Services.AddGrpc().AddJsonTranscoding();
            },
            app => app.MapGrpcService<TallyService>());
        Ours = new HttpClient { BaseAddress = new Uri(_protoHttp.Urls.First()) };
        Theirs = new HttpClient { BaseAddress = new Uri(_transcoding.Urls.First()) };
    }

    public async Task DisposeAsync()
    {
        Ours.Dispose();
        Theirs.Dispose();
        await _protoHttp.DisposeAsync();
        await _transcoding.DisposeAsync();
    }

    [Fact]
    public async Task RulesOnClientAndBidirectionalStreamsWarnAtStartupAndMapNoRouteAsInTranscoding()
    {
        var warnings = OurLogs.Entries.Where(e => e.EventId.Name == "RestRuleNotServed").ToList();
        Assert.All(warnings, w => Assert.Equal(LogLevel.Warning, w.Level));
        Assert.Equal(
            [
                "protohttp.tests.reststreams.Tally.Add: its google.api.http rule POST /v1/tallies/{name}/add maps no REST route: the method is client streaming, and a REST call carries one request message. The method keeps its other routes.",
                "protohttp.tests.reststreams.Tally.Exchange: its google.api.http rule POST /v1/tallies/{name}/exchange maps no REST route: the method is bidirectional streaming, and a REST call carries one request message. The method keeps its other routes.",
            ],
            warnings.Select(w => w.Message));
        Assert.Equal(2, TheirLogs.Entries.Count(e => e.Level == LogLevel.Warning && e.Message.Contains("Client and bidirectional streaming methods are not supported", StringComparison.Ordinal)));

        foreach (var client in new[] { Ours, Theirs })
        {
            using var add = await client.PostAsync("/v1/tallies/t/add", new StringContent("""{"value":1}""", MediaTypeHeaderValue.Parse("application/json")));
            using var exchange = await client.PostAsync("/v1/tallies/t/exchange", new StringContent("""{"value":1}""", MediaTypeHeaderValue.Parse("application/json")));
            using var count = await client.GetAsync("/v1/tallies/t?value=3");
            Assert.Equal(HttpStatusCode.NotFound, add.StatusCode);
            Assert.Equal(HttpStatusCode.NotFound, exchange.StatusCode);
            Assert.Equal(HttpStatusCode.OK, count.StatusCode);
        }
    }

    [Fact]
    public async Task AResponseBodyOnAMessageFieldMakesEachRecordThatFieldAsInTranscoding()
    {
        using var theirs = await Theirs.GetAsync("/v1/tallies/t/entries?value=2");
        var expected = RestTranscodingParityTests.JsonValues(await theirs.Content.ReadAsStringAsync()).Select(json => JsonParser.Default.Parse<Entry>(json)).ToList();
        Assert.Equal([new Entry { Name = "t-1", Value = 1 }, new Entry { Name = "t-2", Value = 2 }], expected);

        foreach (var format in StreamWire.Formats)
        {
            using var request = new HttpRequestMessage(HttpMethod.Get, "/v1/tallies/t/entries?value=2");
            request.Headers.Accept.ParseAdd(format);
            using var ours = await Ours.SendAsync(request);

            Assert.Equal(HttpStatusCode.OK, ours.StatusCode);
            Assert.Equal(format, ours.Content.Headers.ContentType?.MediaType);
            var (messages, end) = await StreamWire.ReadAllAsync<Entry>(ours);
            Assert.Equal(expected, messages);
            Assert.Equal("OK", end.Code);
        }
    }

    [Fact]
    public async Task AResponseBodyOnARepeatedFieldMakesEachRecordItsJsonValueAsInTranscoding()
    {
        using var theirs = await Theirs.GetAsync("/v1/tallies/t/names?value=2");
        var expected = RestTranscodingParityTests.JsonValues(await theirs.Content.ReadAsStringAsync()).ToList();
        Assert.Equal(["""["t-1"]""", """["t-1","t-2"]"""], expected);

        using var ours = await Ours.GetAsync("/v1/tallies/t/names?value=2");
        Assert.Equal("application/x-ndjson", ours.Content.Headers.ContentType?.MediaType);
        var lines = (await ours.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(expected, lines.Select(line => JsonNode.Parse(line)!["result"]!.ToJsonString()));

        // In protobuf envelopes each record is the value as a google.protobuf.Value, whose JSON is the field's.
        using var request = new HttpRequestMessage(HttpMethod.Get, "/v1/tallies/t/names?value=2");
        request.Headers.Accept.ParseAdd(StreamWire.ConnectProto);
        using var envelopes = await Ours.SendAsync(request);
        var (values, _) = await StreamWire.ReadAllAsync<Google.Protobuf.WellKnownTypes.Value>(envelopes);
        Assert.Equal(["t-1", "t-2"], values[1].ListValue.Values.Select(v => v.StringValue));
    }
}

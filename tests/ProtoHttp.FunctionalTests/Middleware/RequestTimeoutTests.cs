using System.Net;
using System.Text.Json;
using System.Xml.Linq;
using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http.Timeouts;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// ASP.NET Core's request-timeout middleware with a default policy (docs/protocol.md section 11): its timeout is the
/// call's deadline, a unary call past it answers 504 DEADLINE_EXCEEDED in the negotiated format, streams are left out
/// of the default policy, and a stream whose endpoint names a timeout ends with its last record carrying the status.
/// </summary>
public sealed class RequestTimeoutTests : IAsyncLifetime
{
    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(1);
    // Watch's stream must let its first item out before this passes: on a loaded 2-core machine a first call on a new
    // connection can take most of a second, so 500 ms was a race. It is the endpoint's own, longer than the default
    // policy's, which streams are left out of anyway.
    private static readonly TimeSpan WatchTimeout = TimeSpan.FromSeconds(3);

    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(
        services: services => services.AddRequestTimeouts(o => o.DefaultPolicy = new RequestTimeoutPolicy { Timeout = DefaultTimeout }),
        pipeline: app => app.UseRequestTimeouts(),
        conventions: service => service.Add(endpoint =>
        {
            // Only Watch's endpoints (every format and the Connect path) name a timeout of their own.
            if (endpoint.Metadata.OfType<MethodDescriptor>().Any(method => method.Name == "Watch"))
            {
                endpoint.Metadata.Add(new RequestTimeoutAttribute((int)WatchTimeout.TotalMilliseconds));
            }
        }));

    public async Task DisposeAsync() => await _app.DisposeAsync();

    public static TheoryData<string, string?, string> UnaryRequests => new()
    {
        { "POST", "application/json", "application/json" },
        { "POST", "application/x-protobuf", "application/x-protobuf" },
        { "GET", null, "application/json" },
        { "GET.xml", null, "application/xml" },
    };

    [Theory]
    [MemberData(nameof(UnaryRequests))]
    public async Task AUnaryCallPastTheHostsTimeoutAnswers504DeadlineExceededInItsFormat(string verb, string? contentType, string answerType)
    {
        var slow = new LookupRequest { Key = "slow", DelayMs = 30_000 };
        using var request = verb switch
        {
            "GET" => new HttpRequestMessage(HttpMethod.Get, $"{MiddlewareApp.Prefix}/Lookup?key=slow&delay_ms=30000"),
            "GET.xml" => new HttpRequestMessage(HttpMethod.Get, $"{MiddlewareApp.Prefix}/Lookup.xml?key=slow&delay_ms=30000"),
            _ => Wire.Post($"{MiddlewareApp.Prefix}/Lookup", slow, contentType!),
        };

        using var response = await _app.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
        Assert.Equal(answerType, response.Content.Headers.ContentType?.MediaType);
        var code = answerType == "application/xml"
            ? XDocument.Parse(await response.Content.ReadAsStringAsync()).Root!.Element("code")!.Value
            : (await Wire.ReadErrorAsync(response)).Code;
        Assert.Equal("DEADLINE_EXCEEDED", code);
        Assert.Empty(await _app.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AConnectCallPastTheHostsTimeoutAnswersDeadlineExceeded()
    {
        using var request = Wire.Post($"{MiddlewareApp.ConnectPrefix}/Lookup", new LookupRequest { DelayMs = 30_000 }, "application/json");

        using var response = await _app.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.GatewayTimeout, response.StatusCode);
        using var error = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal("deadline_exceeded", error.RootElement.GetProperty("code").GetString());
    }

    [Fact]
    public async Task TheServiceSeesTheHostsTimeoutAsItsDeadline()
    {
        using var response = await _app.Client.GetAsync($"{MiddlewareApp.Prefix}/Lookup?key=quick");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True((await Wire.ReadAsync<LookupReply>(response)).HasDeadline);
    }

    [Theory]
    [InlineData(StreamWire.Events)]
    [InlineData(StreamWire.Lines)]
    [InlineData(StreamWire.ConnectProto)]
    public async Task AStreamOutlastsTheHostsDefaultTimeout(string format)
    {
        // Four items 500 ms apart: the stream runs 1.5 s, past the default policy's 1 s.
        var feed = new FeedRequest { Count = 4, IntervalMs = 500 };
        using var request = Wire.Post($"{MiddlewareApp.Prefix}/Feed", feed, "application/json", accept: format);

        using var response = await _app.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        var (items, end) = await StreamWire.ReadAllAsync<FeedItem>(response);

        Assert.Equal([0, 1, 2, 3], items.Select(item => item.Sequence));
        Assert.Equal("OK", end.Code);
    }

    [Theory]
    [InlineData(StreamWire.Events)]
    [InlineData(StreamWire.Lines)]
    [InlineData(StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson)]
    public async Task AStreamWhoseEndpointNamesATimeoutEndsWithDeadlineExceededInItsLastRecord(string format)
    {
        var watch = new FeedRequest { Count = 1, Wait = true };
        using var request = format.StartsWith("application/connect", StringComparison.Ordinal)
            ? ConnectStreamCalls.Post($"{MiddlewareApp.ConnectPrefix}/Watch", StreamWire.Envelope(watch, format), format)
            : Wire.Post($"{MiddlewareApp.Prefix}/Watch", watch, "application/json", accept: format);

        using var response = await _app.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        var (items, end) = await StreamWire.ReadAllAsync<FeedItem>(response);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Single(items);
        Assert.Equal("DEADLINE_EXCEEDED", end.Code);
        Assert.Empty(await _app.Logs.ErrorsOnceEndedAsync());
    }
}

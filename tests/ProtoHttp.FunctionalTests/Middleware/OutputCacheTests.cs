using System.Net;
using System.Net.Http.Headers;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// ASP.NET Core's output cache (docs/protocol.md section 11), as an app turns it on for ProtoHttp's endpoints with
/// <c>.CacheOutput()</c> and for everything with a base policy, neither saying what varies: each negotiated answer is
/// stored for the request that asked for it, streams and explorer pages are never stored, and a stream never waits
/// for another caller's.
/// </summary>
public sealed class OutputCacheTests : IAsyncLifetime
{
    private const string Browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    private MiddlewareApp _endpointPolicy = null!;
    private MiddlewareApp _basePolicy = null!;

    public async Task InitializeAsync()
    {
        _endpointPolicy = await MiddlewareApp.StartAsync(
            services: services => services.AddOutputCache(),
            pipeline: app => app.UseOutputCache(),
            conventions: service =>
            {
                service.CacheOutput();
                service.ProtoFile.CacheOutput();
            });
        _basePolicy = await MiddlewareApp.StartAsync(
            services: services => services.AddOutputCache(o => o.AddBasePolicy(policy => policy.Cache())),
            pipeline: app => app.UseOutputCache());
    }

    public async Task DisposeAsync()
    {
        await _endpointPolicy.DisposeAsync();
        await _basePolicy.DisposeAsync();
    }

    public static TheoryData<bool> Policies => new() { true, false };

    [Theory]
    [MemberData(nameof(Policies))]
    public async Task EachFormatIsStoredForTheAcceptThatAskedForIt(bool basePolicy)
    {
        var app = App(basePolicy);
        var path = $"{MiddlewareApp.Prefix}/Lookup?key={Guid.NewGuid():N}";
        string[] formats = ["application/json", "application/xml", "application/x-protobuf"];

        var first = new Dictionary<string, long>();
        foreach (var accept in formats)
        {
            first[accept] = await SerialAsync(app, path, accept);
        }

        Assert.Equal(3, first.Values.Distinct().Count()); // Each format ran the service once: none got another's answer.
        foreach (var accept in formats)
        {
            Assert.Equal(first[accept], await SerialAsync(app, path, accept)); // And is then stored for its own Accept.
        }
    }

    [Theory]
    [MemberData(nameof(Policies))]
    public async Task AConnectGetIsStoredPerEncoding(bool basePolicy)
    {
        var app = App(basePolicy);
        var path = ConditionalGetTests.ConnectGet(new LookupRequest { Key = Guid.NewGuid().ToString("N"), Size = 4096 });

        using var plain = await app.Client.GetAsync(path);
        using var gzipped = await SendAsync(app, path, acceptEncoding: "gzip");
        using var gzippedAgain = await SendAsync(app, path, acceptEncoding: "gzip");
        using var plainAgain = await app.Client.GetAsync(path);

        Assert.Empty(plain.Content.Headers.ContentEncoding);
        Assert.Equal(["gzip"], gzipped.Content.Headers.ContentEncoding);
        Assert.Equal(["gzip"], gzippedAgain.Content.Headers.ContentEncoding);
        Assert.Empty(plainAgain.Content.Headers.ContentEncoding);
        Assert.Equal(await plain.Content.ReadAsByteArrayAsync(), await plainAgain.Content.ReadAsByteArrayAsync());
        Assert.NotNull(plainAgain.Headers.Age); // served from the store
    }

    [Theory]
    [MemberData(nameof(Policies))]
    public async Task TheProtoFileIsStoredPerAcceptAndItsPageNever(bool basePolicy)
    {
        var app = App(basePolicy);

        // A browser's visit first: its page must not become what curl or a tool gets.
        using var page = await SendAsync(app, MiddlewareApp.Prefix, accept: Browser);
        using var text = await SendAsync(app, MiddlewareApp.Prefix, accept: "*/*");
        using var descriptors = await SendAsync(app, MiddlewareApp.Prefix, accept: "application/x-protobuf");
        using var pageAgain = await SendAsync(app, MiddlewareApp.Prefix, accept: Browser);
        using var textAgain = await SendAsync(app, MiddlewareApp.Prefix, accept: "*/*");
        using var descriptorsAgain = await SendAsync(app, MiddlewareApp.Prefix, accept: "application/x-protobuf");

        Assert.Equal("text/html", page.Content.Headers.ContentType?.MediaType);
        Assert.Equal("text/plain", text.Content.Headers.ContentType?.MediaType);
        Assert.Equal("application/x-protobuf", descriptors.Content.Headers.ContentType?.MediaType);
        Assert.Equal("text/html", pageAgain.Content.Headers.ContentType?.MediaType);
        Assert.Null(pageAgain.Headers.Age); // the page is written for each visitor
        Assert.Equal("text/plain", textAgain.Content.Headers.ContentType?.MediaType);
        Assert.Equal("application/x-protobuf", descriptorsAgain.Content.Headers.ContentType?.MediaType);
        Assert.NotNull(descriptorsAgain.Headers.Age);
    }

    [Fact]
    public async Task TheExplorerIndexIsNeverStoredUnderABasePolicy()
    {
        using var first = await SendAsync(_basePolicy, "/protohttp", accept: Browser);
        using var again = await SendAsync(_basePolicy, "/protohttp", accept: Browser);

        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        Assert.Null(again.Headers.Age);
    }

    [Theory]
    [MemberData(nameof(Policies))]
    public async Task AStreamIsNeverReplayed(bool basePolicy)
    {
        var app = App(basePolicy);
        var path = $"{MiddlewareApp.Prefix}/Feed?count=2";

        var first = await ReadFeedAsync(app, path);
        var again = await ReadFeedAsync(app, path);

        Assert.Equal(2, first.Count);
        Assert.Empty(first.Intersect(again)); // new items from the service, not the first stream's
    }

    [Theory]
    [MemberData(nameof(Policies))]
    public async Task ASecondSubscriberDoesNotWaitForTheFirstStream(bool basePolicy)
    {
        var app = App(basePolicy);
        var path = $"{MiddlewareApp.Prefix}/Watch?count=1&wait=true";
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));

        // The first stream stays open; the output cache's request coalescing would hold the second until it ends.
        using var first = await app.Client.GetAsync(path, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
        await using var firstRecords = StreamWire.ReadAsync<FeedItem>(first, timeout.Token).GetAsyncEnumerator(timeout.Token);
        Assert.True(await firstRecords.MoveNextAsync());
        using var second = await app.Client.GetAsync(path, HttpCompletionOption.ResponseHeadersRead, timeout.Token);
        await using var secondRecords = StreamWire.ReadAsync<FeedItem>(second, timeout.Token).GetAsyncEnumerator(timeout.Token);
        Assert.True(await secondRecords.MoveNextAsync());

        Assert.NotEqual(firstRecords.Current.Message!.Serial, secondRecords.Current.Message!.Serial);
    }

    [Fact]
    public async Task AStoredAnswerKeepsItsTagAndTheCacheAnswers304()
    {
        var path = $"{MiddlewareApp.Prefix}/Lookup?key={Guid.NewGuid():N}&stable=true";
        using var first = await _endpointPolicy.Client.GetAsync(path);
        using var stored = await _endpointPolicy.Client.GetAsync(path);
        using var revalidate = new HttpRequestMessage(HttpMethod.Get, path);
        revalidate.Headers.TryAddWithoutValidation("If-None-Match", first.Headers.ETag!.Tag);
        using var notModified = await _endpointPolicy.Client.SendAsync(revalidate);

        Assert.NotNull(stored.Headers.Age);
        Assert.Equal(first.Headers.ETag, stored.Headers.ETag);
        Assert.Null(stored.Headers.CacheControl); // none unless the app sets one
        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
    }

    private MiddlewareApp App(bool basePolicy) => basePolicy ? _basePolicy : _endpointPolicy;

    private static async Task<long> SerialAsync(MiddlewareApp app, string path, string accept)
    {
        using var response = await SendAsync(app, path, accept);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(accept, response.Content.Headers.ContentType?.MediaType);
        if (accept == "application/xml")
        {
            var xml = System.Xml.Linq.XDocument.Parse(await response.Content.ReadAsStringAsync());
            return long.Parse(xml.Root!.Element("serial")!.Value, System.Globalization.CultureInfo.InvariantCulture);
        }

        return (await Wire.ReadAsync<LookupReply>(response)).Serial;
    }

    private static async Task<List<long>> ReadFeedAsync(MiddlewareApp app, string path)
    {
        using var response = await SendAsync(app, path, accept: StreamWire.Lines);
        var (items, end) = await StreamWire.ReadAllAsync<FeedItem>(response);
        Assert.Equal("OK", end.Code);
        return items.Select(item => item.Serial).ToList();
    }

    private static Task<HttpResponseMessage> SendAsync(MiddlewareApp app, string path, string? accept = null, string? acceptEncoding = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        if (accept is not null)
        {
            request.Headers.Accept.ParseAdd(accept);
        }

        if (acceptEncoding is not null)
        {
            request.Headers.AcceptEncoding.ParseAdd(acceptEncoding);
        }

        return app.Client.SendAsync(request);
    }
}

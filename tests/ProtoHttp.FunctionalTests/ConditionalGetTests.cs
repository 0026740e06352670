using System.Net;
using System.Net.Http.Headers;
using Google.Protobuf;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Conditional GETs (docs/protocol.md section 11): GET answers of side-effect-free methods, on ProtoHttp's routes and
/// Connect's, and the .proto and descriptor set carry a strong ETag from their bytes; If-None-Match with it answers 304
/// without a body; Cache-Control is the app's per service and per method.
/// </summary>
public sealed class ConditionalGetTests : IAsyncLifetime
{
    private const string ServiceCacheControl = "public, max-age=300";
    private const string LookupCacheControl = "public, max-age=5";
    private const string StableLookup = $"{MiddlewareApp.Prefix}/Lookup?key=k&stable=true";

    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(services => services.AddProtoHttp()
        .AddServiceOptions<MiddlewareTestService>(o =>
        {
            o.CacheControl = ServiceCacheControl;
            o.MethodCacheControl["Lookup"] = LookupCacheControl;
        }));

    public async Task DisposeAsync() => await _app.DisposeAsync();

    public static TheoryData<string, string?> Gets => new()
    {
        { StableLookup, "application/json" },
        { StableLookup, "application/xml" },
        { StableLookup, "application/x-protobuf" },
        { $"{MiddlewareApp.Prefix}/Lookup.xml?key=k&stable=true", null },
        { ConnectGet(new LookupRequest { Key = "k", Stable = true }), null },
    };

    [Theory]
    [MemberData(nameof(Gets))]
    public async Task ASideEffectFreeGetCarriesAStrongETagAndIfNoneMatchGets304(string path, string? accept)
    {
        using var first = await GetAsync(path, accept);
        var body = await first.Content.ReadAsByteArrayAsync();

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        var tag = first.Headers.ETag;
        Assert.NotNull(tag);
        Assert.False(tag.IsWeak);
        Assert.Equal(LookupCacheControl, first.Headers.CacheControl?.ToString());

        using var again = await GetAsync(path, accept, ifNoneMatch: tag.Tag);

        Assert.Equal(HttpStatusCode.NotModified, again.StatusCode);
        Assert.Empty(await again.Content.ReadAsByteArrayAsync());
        Assert.Equal(tag, again.Headers.ETag);
        Assert.Equal(LookupCacheControl, again.Headers.CacheControl?.ToString());
        Assert.NotEmpty(body);
    }

    [Fact]
    public async Task EachFormatHasItsOwnTag()
    {
        var tags = new List<string>();
        foreach (var accept in new[] { "application/json", "application/xml", "application/x-protobuf" })
        {
            using var response = await GetAsync(StableLookup, accept);
            tags.Add(response.Headers.ETag!.Tag);
        }

        Assert.Equal(3, tags.Distinct().Count());

        // The JSON answer's tag does not make the XML answer a 304.
        using var xml = await GetAsync(StableLookup, "application/xml", ifNoneMatch: tags[0]);
        Assert.Equal(HttpStatusCode.OK, xml.StatusCode);
        Assert.Equal("application/xml", xml.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task AnotherAnswerGetsAnotherTagAndA200()
    {
        using var first = await GetAsync(StableLookup, "application/json");
        using var other = await GetAsync($"{MiddlewareApp.Prefix}/Lookup?key=other&stable=true", "application/json", ifNoneMatch: first.Headers.ETag!.Tag);

        Assert.Equal(HttpStatusCode.OK, other.StatusCode);
        Assert.NotEqual(first.Headers.ETag, other.Headers.ETag);
        Assert.Equal("other", (await Wire.ReadAsync<LookupReply>(other)).Key);
    }

    [Theory]
    [InlineData("*")]
    [InlineData("W/{0}")]
    [InlineData("\"elsewhere\", {0}")]
    public async Task IfNoneMatchComparesWeaklyAndTakesAListOrAStar(string ifNoneMatch)
    {
        using var first = await GetAsync(StableLookup, "application/json");

        using var again = await GetAsync(StableLookup, "application/json", ifNoneMatch: ifNoneMatch.Replace("{0}", first.Headers.ETag!.Tag, StringComparison.Ordinal));

        Assert.Equal(HttpStatusCode.NotModified, again.StatusCode);
    }

    [Fact]
    public async Task AGzippedConnectAnswerHasATagOfItsOwn()
    {
        var path = ConnectGet(new LookupRequest { Key = "big", Size = 4096, Stable = true });
        using var plain = await GetAsync(path, accept: null);
        using var gzipRequest = new HttpRequestMessage(HttpMethod.Get, path);
        gzipRequest.Headers.AcceptEncoding.ParseAdd("gzip");
        using var gzipped = await _app.Client.SendAsync(gzipRequest);

        Assert.Equal(["gzip"], gzipped.Content.Headers.ContentEncoding);
        Assert.NotEqual(plain.Headers.ETag, gzipped.Headers.ETag);
        Assert.Contains("Accept-Encoding", gzipped.Headers.Vary);

        using var revalidate = new HttpRequestMessage(HttpMethod.Get, path);
        revalidate.Headers.AcceptEncoding.ParseAdd("gzip");
        revalidate.Headers.TryAddWithoutValidation("If-None-Match", gzipped.Headers.ETag!.Tag);
        using var notModified = await _app.Client.SendAsync(revalidate);
        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
    }

    [Theory]
    [InlineData("*/*", "text/plain")]
    [InlineData("application/x-protobuf", "application/x-protobuf")]
    [InlineData("application/json", "application/json")]
    public async Task TheProtoFileAndItsDescriptorSetCarryTagsAndGet304(string accept, string answerType)
    {
        using var first = await GetAsync(MiddlewareApp.Prefix, accept);

        Assert.Equal(answerType, first.Content.Headers.ContentType?.MediaType);
        Assert.Equal(ServiceCacheControl, first.Headers.CacheControl?.ToString());
        var tag = first.Headers.ETag!.Tag;

        using var again = await GetAsync(MiddlewareApp.Prefix, accept, ifNoneMatch: tag);
        Assert.Equal(HttpStatusCode.NotModified, again.StatusCode);

        using var head = new HttpRequestMessage(HttpMethod.Head, MiddlewareApp.Prefix);
        head.Headers.TryAddWithoutValidation("Accept", accept);
        using var headAnswer = await _app.Client.SendAsync(head);
        Assert.Equal(tag, headAnswer.Headers.ETag!.Tag);
    }

    [Fact]
    public async Task AMethodWithSideEffectsAStreamAndAnErrorCarryNoTag()
    {
        using var update = await GetAsync($"{MiddlewareApp.Prefix}/Update?key=k&stable=true", "application/json");
        using var feed = await GetAsync($"{MiddlewareApp.Prefix}/Feed?count=1", StreamWire.Lines);
        using var error = await GetAsync($"{MiddlewareApp.Prefix}/Lookup?nope=1", "application/json");

        Assert.Equal(HttpStatusCode.OK, update.StatusCode);
        Assert.Null(update.Headers.ETag);
        Assert.Null(update.Headers.CacheControl);
        Assert.Equal(HttpStatusCode.OK, feed.StatusCode);
        Assert.Null(feed.Headers.ETag);
        Assert.Equal(HttpStatusCode.BadRequest, error.StatusCode);
        Assert.Null(error.Headers.ETag);
        Assert.Null(error.Headers.CacheControl);
    }

    [Fact]
    public async Task APostIsNeverConditional()
    {
        using var first = await GetAsync(StableLookup, "application/json");
        using var post = Wire.Post($"{MiddlewareApp.Prefix}/Lookup", new LookupRequest { Key = "k", Stable = true }, "application/json");
        post.Headers.TryAddWithoutValidation("If-None-Match", first.Headers.ETag!.Tag);

        using var answer = await _app.Client.SendAsync(post);

        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Null(answer.Headers.ETag);
    }

    internal static string ConnectGet(LookupRequest request) =>
        $"{MiddlewareApp.ConnectPrefix}/Lookup?connect=v1&encoding=json&message={Uri.EscapeDataString(JsonFormatter.Default.Format(request))}";

    private async Task<HttpResponseMessage> GetAsync(string path, string? accept, string? ifNoneMatch = null)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        if (accept is not null)
        {
            request.Headers.Accept.Add(MediaTypeWithQualityHeaderValue.Parse(accept));
        }

        if (ifNoneMatch is not null)
        {
            request.Headers.TryAddWithoutValidation("If-None-Match", ifNoneMatch);
        }

        return await _app.Client.SendAsync(request);
    }
}

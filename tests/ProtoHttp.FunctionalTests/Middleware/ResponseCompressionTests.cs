using System.IO.Compression;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.ResponseCompression;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// ASP.NET Core's response compression over ProtoHttp's answers: unary answers decode byte for byte to what an
/// uncompressing client gets, and streams stay prompt (each record leaves when written, not when gzip's buffer fills).
/// </summary>
public sealed class ResponseCompressionTests : IAsyncLifetime
{
    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(
        services: services => services.AddResponseCompression(o => o.MimeTypes =
        [
            .. ResponseCompressionDefaults.MimeTypes, "application/x-protobuf", StreamWire.Events, StreamWire.Lines,
        ]),
        pipeline: app => app.UseResponseCompression());

    public async Task DisposeAsync() => await _app.DisposeAsync();

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/xml")]
    [InlineData("application/x-protobuf")]
    public async Task AGzippedAnswerDecodesToTheSameBytes(string accept)
    {
        var path = $"{MiddlewareApp.Prefix}/Lookup?key=big&size=20000&stable=true";
        using var plain = await GetAsync(path, accept, gzip: false);
        using var gzipped = await GetAsync(path, accept, gzip: true);

        Assert.Empty(plain.Content.Headers.ContentEncoding);
        Assert.Equal(["gzip"], gzipped.Content.Headers.ContentEncoding);
        Assert.Equal(accept, gzipped.Content.Headers.ContentType?.MediaType);
        var compressed = await gzipped.Content.ReadAsByteArrayAsync();
        var expected = await plain.Content.ReadAsByteArrayAsync();
        Assert.True(compressed.Length < expected.Length / 10);
        Assert.Equal(expected, ConnectWire.Gunzip(compressed));
    }

    [Theory]
    [InlineData(StreamWire.Events)]
    [InlineData(StreamWire.Lines)]
    public async Task AGzippedStreamDeliversARecordWhileTheStreamIsStillOpen(string format)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        // One item, then the stream stays open: the item must arrive now, not when the stream ends.
        using var response = await GetAsync($"{MiddlewareApp.Prefix}/Watch?count=1&wait=true", format, gzip: true, timeout.Token);

        Assert.Equal(["gzip"], response.Content.Headers.ContentEncoding);
        using var decompressed = new HttpResponseMessage(response.StatusCode)
        {
            Content = new StreamContent(new GZipStream(await response.Content.ReadAsStreamAsync(timeout.Token), CompressionMode.Decompress)),
        };
        decompressed.Content.Headers.ContentType = response.Content.Headers.ContentType;
        await using var records = StreamWire.ReadAsync<FeedItem>(decompressed, timeout.Token).GetAsyncEnumerator(timeout.Token);

        Assert.True(await records.MoveNextAsync());
        Assert.Equal(0, records.Current.Message!.Sequence);
    }

    private async Task<HttpResponseMessage> GetAsync(string path, string accept, bool gzip, CancellationToken cancellationToken = default)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Accept.ParseAdd(accept);
        if (gzip)
        {
            request.Headers.AcceptEncoding.ParseAdd("gzip");
        }

        var response = await _app.Client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, cancellationToken);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return response;
    }
}

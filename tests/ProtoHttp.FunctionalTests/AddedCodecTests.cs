using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.OpenApi;
using ProtoService;
using SearchService.Streams;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// A codec added from this project, with no change to ProtoHttp (<see cref="Base64ProtobufCodec"/>), called over real
/// HTTP on the sample: every place that lists formats (reading, Accept, the suffix, the 406 and 415 answers, the streams,
/// Connect, the explorer, OpenAPI) knows it.
/// </summary>
public sealed class AddedCodecTests : IAsyncLifetime
{
    private const string Search = "/ProtoService.proto/Search";
    private const string Streams = "/NorthwindStreams.proto/";
    private const string B64 = Base64ProtobufCodec.MediaType;

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        configure: builder => builder.Services.AddProtoHttp(o => o.Codecs.Add(new Base64ProtobufCodec())));

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task AUnaryPostInTheCodecIsAnsweredInIt()
    {
        using var response = await _server.Client.SendAsync(Post(Search, new SearchRequest { Query = "chai" }, B64));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(B64 + "; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        var answer = Base64ProtobufCodec.Decode(SearchResponse.Parser, await response.Content.ReadAsByteArrayAsync());
        Assert.Equal("Chai", answer.Result[0].Title);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Theory]
    [InlineData(Base64ProtobufCodec.TextMediaType, Base64ProtobufCodec.TextMediaType)]
    [InlineData("application/json;q=0.5, text/x-protobuf-base64", Base64ProtobufCodec.TextMediaType)]
    [InlineData("application/x-protobuf-base64, */*", B64)]
    public async Task AcceptChoosesTheCodecForAJsonRequest(string accept, string expected)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Search) { Content = Wire.Body(new SearchRequest { Query = "chai" }, "application/json") };
        request.Headers.TryAddWithoutValidation("Accept", accept);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expected, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("Chai", Base64ProtobufCodec.Decode(SearchResponse.Parser, await response.Content.ReadAsByteArrayAsync()).Result[0].Title);
    }

    [Theory]
    [InlineData("application/json;q=0.4, application/x-protobuf-base64;q=0.9", B64)]
    [InlineData("application/x-protobuf-base64;q=0.2, application/json", "application/json")]
    [InlineData("text/*;q=0.5, text/x-protobuf-base64", Base64ProtobufCodec.TextMediaType)]
    [InlineData("text/x-protobuf-base64;q=0, text/*", "text/json")]
    public async Task AGetWeighsTheCodecByItsQuality(string accept, string expected)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, Search + "?query=chai");
        request.Headers.TryAddWithoutValidation("Accept", accept);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expected, response.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task ARequestInTheCodecIsAnsweredInItWhereAcceptTies()
    {
        var request = Post(Search, new SearchRequest { Query = "chai" }, B64);
        request.Headers.TryAddWithoutValidation("Accept", "*/*");

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(B64, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("Chai", Base64ProtobufCodec.Decode(SearchResponse.Parser, await response.Content.ReadAsByteArrayAsync()).Result[0].Title);
    }

    [Fact]
    public async Task TheSuffixForcesTheCodecOnAGet()
    {
        using var response = await _server.Client.GetAsync(Search + ".b64?query=chai");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(B64, response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("Chai", Base64ProtobufCodec.Decode(SearchResponse.Parser, await response.Content.ReadAsByteArrayAsync()).Result[0].Title);
    }

    [Fact]
    public async Task AFailureIsAnErrorResultInTheCodec()
    {
        using var response = await _server.Client.SendAsync(Post("/ProtoService.proto/Nope", new SearchRequest { Query = "chai" }, B64));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal(B64, response.Content.Headers.ContentType?.MediaType);
        var error = Base64ProtobufCodec.Decode(ErrorResult.Parser, await response.Content.ReadAsByteArrayAsync());
        Assert.Equal("NOT_FOUND", error.Code);
    }

    [Fact]
    public async Task ABodyTheCodecCannotReadIs400()
    {
        var request = new HttpRequestMessage(HttpMethod.Post, Search) { Content = new StringContent("not base64!", Encoding.UTF8, B64) };

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.StartsWith("The body is not base64 of a SearchRequest", Base64ProtobufCodec.Decode(ErrorResult.Parser, await response.Content.ReadAsByteArrayAsync()).ErrorText);
    }

    [Fact]
    public async Task The415AcceptPostAndThe406TextNameTheCodec()
    {
        var unreadable = new HttpRequestMessage(HttpMethod.Post, Search) { Content = new StringContent("x", Encoding.UTF8, "image/png") };
        using var unsupported = await _server.Client.SendAsync(unreadable);
        using var notAcceptable = await _server.Client.SendAsync(Wire.Post(Search, new SearchRequest { Query = "chai" }, "application/json", "image/png"));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, unsupported.StatusCode);
        Assert.Equal(
            "application/x-protobuf, application/protobuf, application/vnd.google.protobuf, application/proto, application/json, text/json, " +
            "application/*+json, application/xml, text/xml, application/*+xml, application/x-www-form-urlencoded, application/x-protobuf-base64, text/x-protobuf-base64",
            string.Join(", ", unsupported.Headers.GetValues("Accept-Post")));
        Assert.Equal(HttpStatusCode.NotAcceptable, notAcceptable.StatusCode);
        Assert.Equal(
            "None of the media types in the Accept header can be written; this service writes application/x-protobuf, application/protobuf, " +
            "application/vnd.google.protobuf, application/proto, application/json, text/json, application/xml, text/xml, application/x-protobuf-base64, text/x-protobuf-base64.",
            (await Wire.ReadErrorAsync(notAcceptable)).ErrorText);
    }

    [Theory]
    [InlineData("ReplayOrders?limit=3", B64)]
    [InlineData("ReplayOrders.b64?limit=3", null)]
    public async Task AServerStreamInTheCodecIsItsConnectEnvelopes(string path, string? accept)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, Streams + path);
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/connect+b64", response.Content.Headers.ContentType?.MediaType);
        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), StreamWire.Gzipped(response));
        var orders = envelopes.Where(e => e.Flags == 0).Select(e => Base64ProtobufCodec.Decode(Order.Parser, e.Payload)).ToList();
        Assert.Equal([10248, 10249, 10250], orders.Select(o => o.OrderId));
        // The end-stream envelope is Connect's JSON whatever the codec; no error in it is success.
        Assert.Equal(0x02, envelopes[^1].Flags);
        using var end = System.Text.Json.JsonDocument.Parse(envelopes[^1].Payload);
        Assert.False(end.RootElement.TryGetProperty("error", out _));
    }

    [Fact]
    public async Task AClientStreamIsReadInTheCodecsEnvelopes()
    {
        var line = new OrderLine { ProductId = 11, UnitPrice = 14, Quantity = 2 };
        var body = new[] { new Order { OrderId = 1, Lines = { line } }, new Order { OrderId = 2, Lines = { line, line } } }
            .SelectMany(order => StreamWire.Envelope(Base64ProtobufCodec.Encode(order))).ToArray();
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse("application/connect+b64");

        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Streams + "UploadOrders") { Content = content });

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/connect+b64", response.Content.Headers.ContentType?.MediaType);
        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), StreamWire.Gzipped(response));
        var summary = Base64ProtobufCodec.Decode(UploadSummary.Parser, envelopes[0].Payload);
        Assert.Equal(2, summary.Orders);
        Assert.Equal(3, summary.Lines);
    }

    [Fact]
    public async Task AStreamsRefusalsNameTheCodecsEnvelopes()
    {
        var unreadable = new ByteArrayContent([]);
        unreadable.Headers.ContentType = MediaTypeHeaderValue.Parse("application/json");
        using var unsupported = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, Streams + "UploadOrders") { Content = unreadable });
        var xml = new HttpRequestMessage(HttpMethod.Get, Streams + "ReplayOrders?limit=1");
        xml.Headers.TryAddWithoutValidation("Accept", "application/xml");
        using var notAcceptable = await _server.Client.SendAsync(xml);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, unsupported.StatusCode);
        Assert.Equal("application/connect+proto, application/connect+json, application/connect+b64", string.Join(", ", unsupported.Headers.GetValues("Accept-Post")));
        Assert.Equal(HttpStatusCode.NotAcceptable, notAcceptable.StatusCode);
        Assert.Equal(
            "None of the media types in the Accept header is a stream format; a streaming method answers text/event-stream, application/x-ndjson, " +
            "application/jsonl, application/connect+proto, application/connect+json, application/connect+b64 (or a proto, json or b64 type, for its codec's stream).",
            (await Wire.ReadErrorAsync(notAcceptable)).ErrorText);
    }

    [Fact]
    public async Task ConnectCarriesTheCodecByName()
    {
        var request = new HttpRequestMessage(HttpMethod.Post, "/ProtoService.SearchService/Search")
        {
            Content = new ByteArrayContent(Base64ProtobufCodec.Encode(new SearchRequest { Query = "chai" })),
        };
        request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse("application/b64");
        request.Headers.TryAddWithoutValidation("Connect-Protocol-Version", "1");

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/b64", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal("Chai", Base64ProtobufCodec.Decode(SearchResponse.Parser, await response.Content.ReadAsByteArrayAsync()).Result[0].Title);
    }

    [Fact]
    public async Task ConnectGetCarriesTheCodecAsItsEncoding()
    {
        var query = System.Buffers.Text.Base64Url.EncodeToString(Base64ProtobufCodec.Encode(new OrderQuery { CustomerIds = { "VINET" } }));

        // message= is the codec's own bytes, base64url-encoded as Connect's GET carries binary codecs.
        using var response = await _server.Client.GetAsync($"/Northwind.NorthwindService/FindOrders?connect=v1&encoding=b64&base64=1&message={query}");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/b64", response.Content.Headers.ContentType?.MediaType);
        var orders = Base64ProtobufCodec.Decode(OrderList.Parser, await response.Content.ReadAsByteArrayAsync());
        Assert.NotEmpty(orders.Orders);
        Assert.All(orders.Orders, order => Assert.Equal("VINET", order.CustomerId));
    }

    [Fact]
    public async Task AConnectServerStreamCarriesTheCodecsEnvelopes()
    {
        var content = new ByteArrayContent(StreamWire.Envelope(Base64ProtobufCodec.Encode(new ReplayRequest { Limit = 2 })));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse("application/connect+b64");

        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Post, "/Northwind.NorthwindStreams/ReplayOrders") { Content = content });

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/connect+b64", response.Content.Headers.ContentType?.MediaType);
        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), StreamWire.Gzipped(response));
        Assert.Equal([10248, 10249], envelopes.Where(e => e.Flags == 0).Select(e => Base64ProtobufCodec.Decode(Order.Parser, e.Payload).OrderId));
        Assert.Equal(0x02, envelopes[^1].Flags);
    }

    [Fact]
    public async Task GrpcWebCarriesTheCodecAsItsPlusName()
    {
        using var response = await _server.Client.SendAsync(GrpcWebWire.Post(
            "/ProtoService.SearchService/Search", GrpcWebWire.Frame(Base64ProtobufCodec.Encode(new SearchRequest { Query = "chai" })), "application/grpc-web+b64"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/grpc-web+b64", response.Content.Headers.ContentType?.MediaType);
        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal("0", trailers["grpc-status"]);
        Assert.Equal("Chai", Base64ProtobufCodec.Decode(SearchResponse.Parser, Assert.Single(messages)).Result[0].Title);
    }

    [Fact]
    public async Task AGrpcWebServerStreamCarriesTheCodec()
    {
        using var response = await _server.Client.SendAsync(GrpcWebWire.Post(
            "/Northwind.NorthwindStreams/ReplayOrders", GrpcWebWire.Frame(Base64ProtobufCodec.Encode(new ReplayRequest { Limit = 2 })), "application/grpc-web+b64"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var (messages, trailers) = GrpcWebWire.Read(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal("0", trailers["grpc-status"]);
        Assert.Equal([10248, 10249], messages.Select(payload => Base64ProtobufCodec.Decode(Order.Parser, payload).OrderId));
    }

    [Fact]
    public async Task GrpcWebsRefusalListsTheCodecAndNoTextModeForATextCodec()
    {
        // The codec's bodies are text already, so gRPC-Web's base64 text mode (for binary frames) does not carry it.
        using var response = await _server.Client.SendAsync(GrpcWebWire.Post("/ProtoService.SearchService/Search", [], "application/grpc-web-text+b64"));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Equal(
            "application/grpc-web, application/grpc-web+proto, application/grpc-web+json, application/grpc-web+b64, application/grpc-web-text, application/grpc-web-text+proto",
            response.Headers.GetValues("Accept-Post").Single());
    }

    [Fact]
    public async Task TheExplorerOffersTheCodec()
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/ProtoService.proto");
        request.Headers.TryAddWithoutValidation("Accept", "text/html");

        using var response = await _server.Client.SendAsync(request);
        var page = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("&quot;B64&quot;:&quot;application/x-protobuf-base64&quot;", page, StringComparison.Ordinal);
        Assert.Contains("formaction=\"/ProtoService.proto/Search.b64\" class=\"px-noscript\">Call, answer in B64</button>", page, StringComparison.Ordinal);

        // The button's form post, as a browser without script sends it, is answered in the codec.
        using var answer = await _server.Client.PostAsync(Search + ".b64", new FormUrlEncodedContent([new("query", "chai")]));
        Assert.Equal(B64, answer.Content.Headers.ContentType?.MediaType);
    }

    [Fact]
    public async Task TheExplorersClientStreamHintNamesTheCodecsEnvelopes()
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/NorthwindStreams.proto");
        request.Headers.TryAddWithoutValidation("Accept", "text/html");

        using var response = await _server.Client.SendAsync(request);
        var page = System.Net.WebUtility.HtmlDecode(await response.Content.ReadAsStringAsync());

        // What the UploadOrders route reads, as its endpoint's metadata says: each Connect codec's envelopes.
        Assert.Contains(
            "a POST to this route whose body is <code>application/connect+proto</code> or <code>application/connect+json</code> or <code>application/connect+b64</code>.",
            page, StringComparison.Ordinal);
    }

    [Fact]
    public async Task OpenApiDescribesTheCodecAndItsCallsWorkAsDescribed()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);

        var post = document.Operation(Search, "post");
        Assert.True(post.GetProperty("requestBody").GetProperty("content").TryGetProperty(B64, out _));
        Assert.True(post.GetProperty("responses").GetProperty("200").GetProperty("content").TryGetProperty(B64, out _));
        Assert.Contains(".b64", post.GetProperty("responses").GetProperty("200").GetProperty("description").GetString(), StringComparison.Ordinal);
        Assert.True(document.Operation("/ProtoService.SearchService/Search", "post").GetProperty("requestBody").GetProperty("content").TryGetProperty("application/b64", out _));
        Assert.True(document.Operation(Streams + "ReplayOrders", "post").GetProperty("responses").GetProperty("200").GetProperty("content")
            .TryGetProperty("application/connect+b64", out _));
        Assert.True(document.Operation(Streams + "UploadOrders", "post").GetProperty("requestBody").GetProperty("content")
            .TryGetProperty("application/connect+b64", out _));
    }

    private static HttpRequestMessage Post(string path, IMessage message, string contentType)
    {
        var content = new ByteArrayContent(Base64ProtobufCodec.Encode(message));
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        return new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
    }
}

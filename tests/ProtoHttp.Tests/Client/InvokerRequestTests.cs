using System.Globalization;
using System.Text;
using Google.Protobuf;
using Grpc.Core;
using Northwind;
using ProtoHttp.Client;
using ProtoService;

namespace ProtoHttp.Tests.Client;

/// <summary>The exact request the invoker sends for each call, and how it reads a successful answer.</summary>
public sealed class InvokerRequestTests
{
    private static readonly SearchRequest Request = new() { Query = "chai", PageNumber = 2 };

    private static readonly SearchResponse Response = new()
    {
        Result = { new SearchResponse.Types.Result { Url = "http://example.com/chai", Title = "Chai", Snippets = { "tea" } } },
    };

    [Fact]
    public async Task ProtobufIsPostedToTheFileAndMethod()
    {
        var handler = new FakeHandler(FakeHandler.Message(Response));
        var client = Client(handler);

        var response = await client.SearchAsync(Request);

        var sent = handler.Request!;
        Assert.Equal(HttpMethod.Post, sent.Method);
        Assert.Equal("http://server:5080/ProtoService.proto/Search", sent.RequestUri!.AbsoluteUri);
        Assert.Equal("application/x-protobuf", handler.ContentType);
        Assert.Equal(Request.CalculateSize(), handler.ContentLength);
        Assert.Equal("application/x-protobuf", Assert.Single(sent.Headers.GetValues("Accept")));
        Assert.False(sent.Headers.Contains("Connect-Timeout-Ms"));
        Assert.Equal(Request.ToByteArray(), handler.Body);
        Assert.Equal(Response, response);
    }

    [Fact]
    public async Task JsonIsSentAndReadByOption()
    {
        var handler = new FakeHandler(FakeHandler.Message(Response, CodecNames.Json));
        var client = Client(handler, new ProtoHttpClientOptions { Codec = CodecNames.Json });

        var response = await client.SearchAsync(Request);

        var sent = handler.Request!;
        Assert.Equal("application/json; charset=utf-8", handler.ContentType);
        Assert.Null(handler.ContentLength);
        Assert.Equal("application/json", Assert.Single(sent.Headers.GetValues("Accept")));
        Assert.Equal("""{ "query": "chai", "pageNumber": 2 }""", Encoding.UTF8.GetString(handler.Body!));
        Assert.Equal(Response, response);
    }

    [Fact]
    public async Task AResponseInAnotherFormatIsStillRead()
    {
        var handler = new FakeHandler(FakeHandler.Message(Response, CodecNames.Json));

        Assert.Equal(Response, await Client(handler).SearchAsync(Request));
    }

    [Fact]
    public async Task ThePathOfTheAddressIsKept()
    {
        var handler = new FakeHandler(FakeHandler.Message(new OrderList()));
        using var http = new HttpClient(handler);
        var client = new NorthwindService.NorthwindServiceClient(
            new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = new Uri("https://server/api") }));

        await client.GetOrdersAsync(new OrdersRequest());

        Assert.Equal("https://server/api/Northwind.proto/GetOrders", handler.Request!.RequestUri!.AbsoluteUri);
        Assert.Equal(0, handler.ContentLength);
    }

    [Fact]
    public async Task TheDeadlineGoesOutAsConnectTimeoutMs()
    {
        var handler = new FakeHandler(FakeHandler.Message(Response));

        await Client(handler).SearchAsync(Request, deadline: DateTime.UtcNow.AddSeconds(5));

        var timeout = long.Parse(Assert.Single(handler.Request!.Headers.GetValues("Connect-Timeout-Ms")), CultureInfo.InvariantCulture);
        Assert.InRange(timeout, 4000, 5000);
    }

    [Fact]
    public async Task MetadataGoesOutAsHeadersWithBinaryInBase64()
    {
        var handler = new FakeHandler(FakeHandler.Message(Response));
        var metadata = new Metadata { { "x-trace", "abc" }, { "x-blob-bin", new byte[] { 1, 2, 255 } } };

        await Client(handler).SearchAsync(Request, metadata);

        Assert.Equal("abc", Assert.Single(handler.Request!.Headers.GetValues("x-trace")));
        Assert.Equal("AQL/", Assert.Single(handler.Request.Headers.GetValues("x-blob-bin")));
    }

    [Fact]
    public async Task ResponseHeadersComeBackAsHeadersTrailersAndStatus()
    {
        var answer = FakeHandler.Message(Response);
        answer.Headers.Add("x-served-by", "fake");
        answer.Headers.Add("x-blob-bin", "AQL/");
        var call = Client(new FakeHandler(answer)).SearchAsync(Request);

        var headers = await call.ResponseHeadersAsync;
        await call.ResponseAsync;

        Assert.Equal("fake", headers.GetValue("x-served-by"));
        Assert.Equal(new byte[] { 1, 2, 255 }, headers.GetValueBytes("x-blob-bin"));
        Assert.Equal("fake", call.GetTrailers().GetValue("x-served-by"));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
    }

    [Fact]
    public void BlockingCallsWork()
    {
        var handler = new FakeHandler(FakeHandler.Message(Response));

        Assert.Equal(Response, Client(handler).Search(Request));
    }

    [Fact]
    public async Task TheHttpClientBaseAddressIsTheDefault()
    {
        var handler = new FakeHandler(FakeHandler.Message(Response));
        using var http = new HttpClient(handler) { BaseAddress = new Uri("http://base:1/") };

        await new SearchService.SearchServiceClient(new ProtoHttpCallInvoker(http)).SearchAsync(Request);

        Assert.Equal("http://base:1/ProtoService.proto/Search", handler.Request!.RequestUri!.AbsoluteUri);
    }

    [Fact]
    public void NoAddressFailsAtOnceSayingWhatToSet()
    {
        using var http = new HttpClient();

        var error = Assert.Throws<InvalidOperationException>(() => new ProtoHttpCallInvoker(http));

        Assert.Contains("ProtoHttpClientOptions.Address", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void FormIsRefusedAtOnce()
    {
        using var http = new HttpClient();

        Assert.Throws<InvalidOperationException>(() => new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = new Uri("http://x"), Codec = CodecNames.Form }));
    }

    [Fact]
    public void StreamingMethodsInXmlFailAtOnceWithUnimplemented()
    {
        // XML has no stream format; streams are called in protobuf or JSON (the functional tests call them).
        using var http = new HttpClient();
        var invoker = new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = new Uri("http://server"), Codec = CodecNames.Xml });
        var marshaller = Marshallers.Create<SearchRequest>(r => r.ToByteArray(), SearchRequest.Parser.ParseFrom);
        var method = new Method<SearchRequest, SearchRequest>(MethodType.ServerStreaming, "ProtoService.SearchService", "Watch", marshaller, marshaller);

        var error = Assert.Throws<RpcException>(() => invoker.AsyncServerStreamingCall(method, null, default, Request));

        Assert.Equal(StatusCode.Unimplemented, error.StatusCode);
        Assert.Contains("XML has no stream format", error.Status.Detail, StringComparison.Ordinal);
    }

    internal static SearchService.SearchServiceClient Client(FakeHandler handler, ProtoHttpClientOptions? options = null)
    {
        options ??= new ProtoHttpClientOptions();
        options.Address ??= new Uri("http://server:5080");
        return new SearchService.SearchServiceClient(new ProtoHttpCallInvoker(new HttpClient(handler), options));
    }
}

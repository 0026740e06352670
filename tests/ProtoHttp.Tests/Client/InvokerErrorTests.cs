using System.Net;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.Client;
using ProtoService;

namespace ProtoHttp.Tests.Client;

/// <summary>Every way a call can fail becomes an <see cref="RpcException"/> that says what happened.</summary>
public sealed class InvokerErrorTests
{
    private static readonly SearchRequest Request = new() { Query = "chai" };

    [Theory]
    [InlineData(CodecNames.Protobuf)]
    [InlineData(CodecNames.Json)]
    [InlineData(CodecNames.Xml)]
    public async Task AnErrorResultGivesItsCodeAndText(string format)
    {
        var error = new ErrorResult { Code = "FAILED_PRECONDITION", ErrorText = "The catalogue is closed." };
        var handler = new FakeHandler(FakeHandler.Message(error, format, HttpStatusCode.BadRequest));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.FailedPrecondition, ex.StatusCode);
        Assert.Equal("The catalogue is closed.", ex.Status.Detail);
    }

    [Fact]
    public async Task AnErrorsHeadersAreTheExceptionsTrailers()
    {
        var answer = FakeHandler.Message(new ErrorResult { Code = "NOT_FOUND", ErrorText = "No such product." }, status: HttpStatusCode.NotFound);
        answer.Headers.Add("x-request-id", "42");
        var call = InvokerRequestTests.Client(new FakeHandler(answer)).SearchAsync(Request);

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal("42", ex.Trailers.GetValue("x-request-id"));
        Assert.Equal("42", (await call.ResponseHeadersAsync).GetValue("x-request-id"));
        Assert.Equal(StatusCode.NotFound, call.GetStatus().StatusCode);
    }

    [Fact]
    public async Task MetadataNamingABodyHeaderFailsTheCall()
    {
        var handler = new FakeHandler(FakeHandler.Message(new SearchResponse()));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request, new Metadata { { "content-type", "text/plain" } }).ResponseAsync);

        Assert.Equal(StatusCode.Internal, ex.StatusCode);
        Assert.Equal(0, handler.Calls);
    }

    [Fact]
    public async Task AnErrorResultWithoutCodeTakesTheHttpStatus()
    {
        var handler = new FakeHandler(FakeHandler.Raw(HttpStatusCode.ServiceUnavailable, "application/json", """{"errorText":"Down for maintenance."}"""));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
        Assert.Equal("Down for maintenance.", ex.Status.Detail);
    }

    [Fact]
    public async Task AProxyHtmlPageSaysWhatCameBack()
    {
        var page = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body></html>";
        var handler = new FakeHandler(FakeHandler.Raw(HttpStatusCode.BadGateway, "text/html", page));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
        Assert.Equal(
            "The server answered 502 Bad Gateway with Content-Type 'text/html' and the body '<html> <head><title>502 Bad Gateway</title></head> <body>nginx</body></html>', not an ErrorResult.",
            ex.Status.Detail);
    }

    [Fact]
    public async Task AnEmptyBodySaysSo()
    {
        var handler = new FakeHandler(FakeHandler.Raw(HttpStatusCode.InternalServerError, null, []));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.Unknown, ex.StatusCode);
        Assert.Equal("The server answered 500 Internal Server Error with no Content-Type and an empty body, not an ErrorResult.", ex.Status.Detail);
    }

    [Fact]
    public async Task AWrongContentTypeSaysSoWithTheStartOfTheBody()
    {
        var handler = new FakeHandler(FakeHandler.Raw(HttpStatusCode.Forbidden, "text/plain", new string('x', 300)));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.PermissionDenied, ex.StatusCode);
        Assert.Equal($"The server answered 403 Forbidden with Content-Type 'text/plain' and the body '{new string('x', 200)}…', not an ErrorResult.", ex.Status.Detail);
    }

    [Fact]
    public async Task ASuccessThatIsNotAMessageIsInternal()
    {
        var handler = new FakeHandler(FakeHandler.Raw(HttpStatusCode.OK, "text/html", "<html>Sign in to the Wi-Fi</html>"));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.Internal, ex.StatusCode);
        Assert.Equal(
            "The response to /ProtoService.SearchService/Search is not a message. The server answered 200 OK with Content-Type 'text/html' and the body '<html>Sign in to the Wi-Fi</html>'.",
            ex.Status.Detail);
    }

    [Fact]
    public async Task AnUnreadableMessageIsInternal()
    {
        var handler = new FakeHandler(FakeHandler.Raw(HttpStatusCode.OK, "application/json", "{ not json"));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.Internal, ex.StatusCode);
        Assert.StartsWith("The response to /ProtoService.SearchService/Search could not be read: ", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AResponseOverTheLimitIsResourceExhausted()
    {
        var handler = new FakeHandler(FakeHandler.Raw(HttpStatusCode.OK, "application/x-protobuf", new byte[2048]));
        var client = InvokerRequestTests.Client(handler, new ProtoHttpClientOptions { MaxResponseSize = 1024 });

        var ex = await Assert.ThrowsAsync<RpcException>(() => client.SearchAsync(Request).ResponseAsync);

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
    }

    [Fact]
    public async Task AConnectionFailureIsUnavailable()
    {
        var handler = new FakeHandler((_, _) => throw new HttpRequestException(HttpRequestError.ConnectionError, "Connection refused (server:5080)"));
        var call = InvokerRequestTests.Client(handler).SearchAsync(Request);

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);
        var headersEx = await Assert.ThrowsAsync<RpcException>(() => call.ResponseHeadersAsync);

        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
        Assert.Equal("http://server:5080/ProtoService.proto/Search could not be reached: Connection refused (server:5080)", ex.Status.Detail);
        Assert.Same(ex, headersEx);
        Assert.Equal(StatusCode.Unavailable, call.GetStatus().StatusCode);
    }

    [Fact]
    public async Task TheTokenCancelsTheRequest()
    {
        var handler = new FakeHandler(async (_, token) =>
        {
            await Task.Delay(Timeout.Infinite, token);
            throw new InvalidOperationException("unreachable");
        });
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(50));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request, cancellationToken: cancellation.Token).ResponseAsync);

        Assert.Equal(StatusCode.Cancelled, ex.StatusCode);
    }

    [Fact]
    public async Task TheDeadlineIsEnforcedByTheClient()
    {
        var handler = new FakeHandler(async (_, token) =>
        {
            await Task.Delay(Timeout.Infinite, token);
            throw new InvalidOperationException("unreachable");
        });

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request, deadline: DateTime.UtcNow.AddMilliseconds(50)).ResponseAsync);

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
    }

    [Fact]
    public async Task APassedDeadlineSendsNothing()
    {
        var handler = new FakeHandler(FakeHandler.Message(new SearchResponse()));

        var ex = await Assert.ThrowsAsync<RpcException>(() => InvokerRequestTests.Client(handler).SearchAsync(Request, deadline: DateTime.UtcNow.AddSeconds(-1)).ResponseAsync);

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.Equal(0, handler.Calls);
    }

    [Fact]
    public async Task AddProtoHttpClientCreatesTheGeneratedClientOverTheFactorysHttpClient()
    {
        var handler = new FakeHandler((_, _) => Task.FromResult(FakeHandler.Message(new SearchResponse())));
        var services = new ServiceCollection();
        var builder = services.AddProtoHttpClient<SearchService.SearchServiceClient>(o => o.Address = new Uri("http://di:1"))
            .ConfigurePrimaryHttpMessageHandler(() => handler);
        using var provider = services.BuildServiceProvider();

        await provider.GetRequiredService<SearchService.SearchServiceClient>().SearchAsync(Request);
        await provider.GetRequiredService<SearchService.SearchServiceClient>().SearchAsync(Request);

        Assert.Equal("SearchServiceClient", builder.Name);
        Assert.Equal("http://di:1/ProtoService.proto/Search", handler.Request!.RequestUri!.AbsoluteUri);
        Assert.Equal(2, handler.Calls);
        Assert.Equal(Timeout.InfiniteTimeSpan, provider.GetRequiredService<IHttpClientFactory>().CreateClient(builder.Name).Timeout);
    }
}

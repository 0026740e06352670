using Google.Rpc;
using Grpc.Core;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;
using ProtoService;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// The generated clients with <see cref="ProtocolNames.Connect"/>: calls go to the Connect paths
/// (<c>/{package.Service}/{Method}</c>) in protobuf or JSON, and errors, details, trailers and deadlines arrive as
/// they do under gRPC.
/// </summary>
public sealed class ConnectProtocolTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    public static TheoryData<string, bool> FormatsAndProtocols => new()
    {
        { CodecNames.Protobuf, false }, { CodecNames.Json, false }, { CodecNames.Protobuf, true }, { CodecNames.Json, true },
    };

    [Theory]
    [MemberData(nameof(FormatsAndProtocols))]
    public async Task AUnaryCallGoesToTheConnectPath(string format, bool http2)
    {
        using var http = Http(http2);
        var test = new ClientTestService.ClientTestServiceClient(Invoker(http, format));

        var reply = await test.EchoAsync(new EchoRequest());

        Assert.Equal("/protohttp.clienttests.ClientTestService/Echo", reply.HttpPath);
        Assert.Equal("1", reply.Headers["connect-protocol-version"]);
        Assert.Equal(format == CodecNames.Protobuf ? "application/proto" : "application/json", reply.Headers["content-type"].Split(';')[0]);
    }

    [Theory]
    [InlineData(CodecNames.Protobuf)]
    [InlineData(CodecNames.Json)]
    public async Task TheSampleAnswersInBothCodecs(string format)
    {
        using var http = Http(http2: false);
        var invoker = Invoker(http, format);

        var search = await new ProtoService.SearchService.SearchServiceClient(invoker).SearchAsync(new SearchRequest { Query = "chai" });
        var orders = await new NorthwindService.NorthwindServiceClient(invoker).GetOrdersAsync(new OrdersRequest());

        Assert.Equal("Chai", search.Result[0].Title);
        Assert.Equal(830, orders.Orders.Count);
    }

    [Theory]
    [InlineData(StatusCode.NotFound, "NOT_FOUND")]
    [InlineData(StatusCode.Cancelled, "CANCELLED")]
    [InlineData(StatusCode.ResourceExhausted, "RESOURCE_EXHAUSTED")]
    [InlineData(StatusCode.Unauthenticated, "UNAUTHENTICATED")]
    [InlineData(StatusCode.DataLoss, "DATA_LOSS")]
    public async Task AnErrorArrivesWithItsCodeMessageAndTrailers(StatusCode code, string name)
    {
        using var http = Http(http2: false);
        var test = new ClientTestService.ClientTestServiceClient(Invoker(http, CodecNames.Protobuf));

        var ex = await Assert.ThrowsAsync<RpcException>(() => test.FailAsync(new FailRequest { Code = name, Detail = $"Failed with {name}." }).ResponseAsync);

        Assert.Equal(code, ex.StatusCode);
        Assert.Equal($"Failed with {name}.", ex.Status.Detail);
        Assert.Equal($"Failed with {name}.", ex.Trailers.GetValue("failure-reason"));
    }

    [Fact]
    public async Task ARichErrorsDetailsAreReadAsUnderGrpc()
    {
        using var http = Http(http2: false);
        var search = new ProtoService.SearchService.SearchServiceClient(Invoker(http, CodecNames.Json));

        var ex = await Assert.ThrowsAsync<RpcException>(() => search.SearchAsync(new SearchRequest { Query = "chai", PageNumber = 0 }).ResponseAsync);

        // Grpc.StatusProto's reading of the status, as a gRPC client would do it.
        var status = ex.GetRpcStatus();
        Assert.NotNull(status);
        Assert.Equal((int)Code.InvalidArgument, status.Code);
        var badRequest = status.GetDetail<BadRequest>();
        Assert.Equal("page_number", Assert.Single(badRequest!.FieldViolations).Field);
    }

    [Fact]
    public async Task ADeadlineTravelsAndExpires()
    {
        using var http = Http(http2: false);
        var test = new ClientTestService.ClientTestServiceClient(Invoker(http, CodecNames.Protobuf));
        var probe = Guid.NewGuid().ToString();

        // Travels: the server reads Connect's header, the time left in milliseconds, at most what the client gave.
        var echoed = await test.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(20));
        var sent = long.Parse(echoed.Headers["connect-timeout-ms"], System.Globalization.CultureInfo.InvariantCulture);
        Assert.InRange(sent, 1, 20_000);

        // Expires: the call ends DEADLINE_EXCEEDED and the service's token fired.
        var ex = await Assert.ThrowsAsync<RpcException>(() =>
            test.SlowAsync(new SlowRequest { DelayMs = 30_000, Probe = probe }, deadline: DateTime.UtcNow.AddSeconds(2)).ResponseAsync);

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.True(await server.Probe.Outcome(probe).WaitAsync(TimeSpan.FromSeconds(30)), "The server's token did not fire.");
    }

    [Fact]
    public void XmlCannotBeEnvelopedSoConnectDoesNotCarryIt()
    {
        using var http = Http(http2: false);

        var ex = Assert.Throws<InvalidOperationException>(() => Invoker(http, CodecNames.Xml));

        Assert.Equal("Connect carries codecs that can be enveloped (proto, json), not xml.", ex.Message);
    }

    private static HttpClient Http(bool http2) => http2
        ? new HttpClient { DefaultRequestVersion = System.Net.HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact }
        : new HttpClient();

    private ProtoHttpCallInvoker Invoker(HttpClient http, string format) => new(http, new ProtoHttpClientOptions
    {
        Address = http.DefaultRequestVersion == System.Net.HttpVersion.Version20 ? server.Http2Address : server.Address,
        Codec = format,
        Protocol = ProtocolNames.Connect,
    });
}

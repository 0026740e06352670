using Grpc.Core;
using Grpc.Net.Client;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// The same service and the same interceptors, registered once, called through grpc-dotnet's client over gRPC and
/// through ProtoHttp's typed client over HTTP: the interceptors' effects, refusals and GetHttpContext() agree.
/// </summary>
public sealed class InterceptorParityTests(GrpcAndProtoHttpServer server) : IClassFixture<GrpcAndProtoHttpServer>, IDisposable
{
    private const string EchoMethod = "/protohttp.clienttests.ClientTestService/Echo";

    private readonly GrpcChannel _channel = GrpcChannel.ForAddress(server.GrpcAddress);
    private readonly ClientFactory _protoHttp = new(server.ProtoHttpAddress);

    public static TheoryData<string> Transports => new() { "grpc", "protohttp" };

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task AnAllowedCallRunsThroughBothInterceptors(string transport)
    {
        using var call = Client(transport).EchoAsync(new EchoRequest(), new Metadata { { "x-allow", "yes" }, { "x-transport", transport } });

        var reply = await call;

        Assert.Equal(transport, reply.Headers["x-transport"]);
        Assert.Equal(EchoMethod, call.GetTrailers().GetValue("x-intercepted"));
        Assert.Contains(server.Record.Calls, c => c.Method == EchoMethod && c.Outcome == reply.ToString());
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task ACallWithoutTheHeaderIsRefusedByTheAuthorizationInterceptor(string transport)
    {
        using var call = Client(transport).EchoAsync(new EchoRequest());

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.PermissionDenied, ex.StatusCode);
        Assert.Equal("The x-allow header is missing.", ex.Status.Detail);
        Assert.Equal(EchoMethod, ex.Trailers.GetValue("x-intercepted")); // The logging interceptor ran first and saw the refusal.
        Assert.Contains(server.Record.Calls, c => c.Method == EchoMethod && c.Outcome == nameof(StatusCode.PermissionDenied));
    }

    [Theory]
    [InlineData("grpc", EchoMethod)]
    [InlineData("protohttp", "/client_test_service.proto/Echo")]
    public async Task GetHttpContextIsTheRequestsUnderBoth(string transport, string path)
    {
        var reply = await Client(transport).EchoAsync(new EchoRequest(), new Metadata { { "x-allow", "yes" } });

        Assert.Equal(path, reply.HttpPath);
    }

    public void Dispose()
    {
        _channel.Dispose();
        _protoHttp.Dispose();
    }

    private Protos.ClientTestService.ClientTestServiceClient Client(string transport) =>
        transport == "grpc" ? new(_channel) : _protoHttp.Test;
}

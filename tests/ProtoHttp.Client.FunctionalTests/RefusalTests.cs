using Grpc.Core;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// The generated client reads the server's refusals (authorization and rate limiting) as their statuses with the
/// server's own text, over ProtoHttp in every format and over Connect: the ErrorResult arrived, not a bare status.
/// </summary>
public sealed class RefusalTests(GuardedServerFixture server) : IClassFixture<GuardedServerFixture>
{
    public static TheoryData<ClientProtocol, MessageFormat> ProtocolsAndFormats => new()
    {
        { ClientProtocol.ProtoHttp, MessageFormat.Protobuf },
        { ClientProtocol.ProtoHttp, MessageFormat.Json },
        { ClientProtocol.ProtoHttp, MessageFormat.Xml },
        { ClientProtocol.Connect, MessageFormat.Protobuf },
        { ClientProtocol.Connect, MessageFormat.Json },
    };

    [Theory]
    [MemberData(nameof(ProtocolsAndFormats))]
    public async Task AnAnonymousCallerReadsUnauthenticated(ClientProtocol protocol, MessageFormat format)
    {
        using var http = new HttpClient();

        var ex = await Assert.ThrowsAsync<RpcException>(() => Client(http, protocol, format).EchoAsync(new EchoRequest()).ResponseAsync);

        Assert.Equal(StatusCode.Unauthenticated, ex.StatusCode);
        Assert.Equal("The call needs an authenticated caller; authenticate and call again.", ex.Status.Detail);
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndFormats))]
    public async Task ACallerWithoutTheRoleReadsPermissionDenied(ClientProtocol protocol, MessageFormat format)
    {
        using var http = new HttpClient();
        var headers = new Metadata { { "x-test-user", "ada" }, { "x-test-roles", "reader" } };

        var ex = await Assert.ThrowsAsync<RpcException>(() => Client(http, protocol, format).EchoAsync(new EchoRequest(), headers).ResponseAsync);

        Assert.Equal(StatusCode.PermissionDenied, ex.StatusCode);
        Assert.Equal("The caller is not allowed to make this call.", ex.Status.Detail);
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndFormats))]
    public async Task ARateLimitedCallerReadsResourceExhausted(ClientProtocol protocol, MessageFormat format)
    {
        using var http = new HttpClient();
        var client = Client(http, protocol, format);
        var headers = new Metadata { { "x-test-user", "ada" }, { "x-test-roles", "admin" }, { GuardedApp.LimitHeader, Guid.NewGuid().ToString() } };

        await client.EchoAsync(new EchoRequest(), headers);
        var ex = await Assert.ThrowsAsync<RpcException>(() => client.EchoAsync(new EchoRequest(), headers).ResponseAsync);

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.StartsWith("The call was refused by a rate limit; retry after ", ex.Status.Detail, StringComparison.Ordinal);
    }

    private ClientTestService.ClientTestServiceClient Client(HttpClient http, ClientProtocol protocol, MessageFormat format) =>
        new(new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address, Protocol = protocol, Format = format }));
}

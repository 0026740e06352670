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
    private static readonly (string, string)[] Everywhere =
    [
        (ProtocolNames.ProtoHttp, CodecNames.Protobuf),
        (ProtocolNames.ProtoHttp, CodecNames.Json),
        (ProtocolNames.ProtoHttp, CodecNames.Xml),
        (ProtocolNames.Connect, CodecNames.Protobuf),
        (ProtocolNames.Connect, CodecNames.Json),
    ];

    public static TheoryData<string, string> ProtocolsAndFormats()
    {
        var data = new TheoryData<string, string>();
        foreach (var (protocol, format) in Everywhere)
        {
            data.Add(protocol, format);
        }

        return data;
    }

    /// <summary>Who calls (nobody, or a user with these roles), and what the client reads, in every protocol and format.</summary>
    public static TheoryData<string, string, string?, StatusCode, string> AuthorizationRefusals()
    {
        var data = new TheoryData<string, string, string?, StatusCode, string>();
        foreach (var (protocol, format) in Everywhere)
        {
            data.Add(protocol, format, null, StatusCode.Unauthenticated, "The call needs an authenticated caller; authenticate and call again.");
            data.Add(protocol, format, "reader", StatusCode.PermissionDenied, "The caller is not allowed to make this call.");
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(AuthorizationRefusals))]
    public async Task AnAuthorizationRefusalArrivesWithItsStatusAndText(string protocol, string format, string? roles, StatusCode code, string text)
    {
        using var http = new HttpClient();
        var headers = roles is null ? new Metadata() : new Metadata { { "x-test-user", "ada" }, { "x-test-roles", roles } };

        var ex = await Assert.ThrowsAsync<RpcException>(() => Client(http, protocol, format).EchoAsync(new EchoRequest(), headers).ResponseAsync);

        Assert.Equal(code, ex.StatusCode);
        Assert.Equal(text, ex.Status.Detail);
    }

    [Theory]
    [MemberData(nameof(ProtocolsAndFormats))]
    public async Task ARateLimitedCallerReadsResourceExhausted(string protocol, string format)
    {
        using var http = new HttpClient();
        var client = Client(http, protocol, format);
        var headers = new Metadata { { "x-test-user", "ada" }, { "x-test-roles", "admin" }, { GuardedApp.LimitHeader, Guid.NewGuid().ToString() } };

        await client.EchoAsync(new EchoRequest(), headers);
        var ex = await Assert.ThrowsAsync<RpcException>(() => client.EchoAsync(new EchoRequest(), headers).ResponseAsync);

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.StartsWith("The call was refused by a rate limit; retry after ", ex.Status.Detail, StringComparison.Ordinal);
    }

    private ClientTestService.ClientTestServiceClient Client(HttpClient http, string protocol, string format) =>
        new(new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address, Protocol = protocol, Codec = format }));
}

using System.Net;
using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Client.Web;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// <c>MapProtoService&lt;T&gt;().RequireAuthorization(policy)</c> with a role: anonymous callers get 401 and callers
/// without the role 403, for every format and verb, with the code each protocol's clients read (an ErrorResult's
/// UNAUTHENTICATED / PERMISSION_DENIED, Connect's unauthenticated / permission_denied, gRPC-Web's status 16 / 7);
/// the <c>.proto</c> endpoint follows its own conventions.
/// </summary>
public sealed class RoleAuthorizationTests : IAsyncLifetime
{
    private const string Admins = "/admins/test_service.proto";
    private const string Private = "/private/test_service.proto";

    // The first mapping of the service (Admins) claims its Connect and gRPC-Web paths.
    private const string Context = "/protohttp.tests.TestService/Context";

    private SampleServer _server = null!;

    // Without the test services' own mapping, so that the guarded one is the first and claims the Connect and gRPC-Web paths.
    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        mapTestServices: false,
        configure: builder => builder.Services.AddAuthorizationBuilder().AddPolicy("admins", p => p.RequireRole("admin")),
        map: app =>
        {
            // Methods need the admin role; the .proto source stays public (the default).
            app.MapProtoService<ScriptedTestService>(Admins).RequireAuthorization("admins");
            // Methods open to anyone; the .proto source needs a signed-in user.
            app.MapProtoService<ScriptedTestService>(Private).ProtoFile.RequireAuthorization();
        });

    public async Task DisposeAsync() => await _server.DisposeAsync();

    public static TheoryData<string, string?, HttpStatusCode> Callers()
    {
        var data = new TheoryData<string, string?, HttpStatusCode>();
        foreach (var format in new[] { "protobuf", "json", "xml", "form", "get", "get.json" })
        {
            data.Add(format, null, HttpStatusCode.Unauthorized);
            data.Add(format, "reader", HttpStatusCode.Forbidden);
            data.Add(format, "reader,admin", HttpStatusCode.OK);
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Callers))]
    public async Task ARolePolicyRefusesAnonymousAndWrongRoleCallersInEveryFormat(string format, string? roles, HttpStatusCode expected)
    {
        var request = Call($"{Admins}/Context", format);
        SignIn(request.Headers, roles);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(expected, response.StatusCode);
        if (expected == HttpStatusCode.OK && format != "xml")
        {
            Assert.Equal("ada", (await Wire.ReadAsync<ContextReply>(response)).User);
        }
        else if (expected != HttpStatusCode.OK)
        {
            // docs/protocol.md section 5: UNAUTHENTICATED 401, PERMISSION_DENIED 403.
            var error = ErrorBody.TryRead(response.Content.Headers.ContentType?.ToString(), await response.Content.ReadAsByteArrayAsync());
            Assert.Equal(expected == HttpStatusCode.Unauthorized ? "UNAUTHENTICATED" : "PERMISSION_DENIED", error?.Code);
        }
    }

    [Theory]
    [InlineData("application/json", null, HttpStatusCode.Unauthorized, "unauthenticated")]
    [InlineData("application/json", "reader", HttpStatusCode.Forbidden, "permission_denied")]
    [InlineData("application/proto", null, HttpStatusCode.Unauthorized, "unauthenticated")]
    [InlineData("application/proto", "reader", HttpStatusCode.Forbidden, "permission_denied")]
    public async Task ARolePolicyRefusesConnectCallersWithConnectsErrorCode(string contentType, string? roles, HttpStatusCode status, string code)
    {
        var content = new ByteArrayContent(contentType == "application/json" ? "{}"u8.ToArray() : []);
        content.Headers.ContentType = new(contentType);
        var request = new HttpRequestMessage(HttpMethod.Post, Context) { Content = content };
        request.Headers.Add("Connect-Protocol-Version", "1");
        SignIn(request.Headers, roles);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(status, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType); // Connect's errors are JSON.
        using var error = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal(code, error.RootElement.GetProperty("code").GetString());
    }

    /// <summary>
    /// Grpc.Net.Client.Web reads the refusal: status 16 (UNAUTHENTICATED) and 7 (PERMISSION_DENIED) as gRPC numbers
    /// them (doc/statuscodes.md), from ASP.NET Core's 401 and 403 (docs/protocol.md section 12).
    /// </summary>
    [Theory]
    [InlineData(GrpcWebMode.GrpcWeb, null, 16)]
    [InlineData(GrpcWebMode.GrpcWeb, "reader", 7)]
    [InlineData(GrpcWebMode.GrpcWebText, null, 16)]
    [InlineData(GrpcWebMode.GrpcWebText, "reader", 7)]
    [InlineData(GrpcWebMode.GrpcWeb, "reader,admin", 0)]
    public async Task ARolePolicyRefusesGrpcWebCallersWithStatus16Or7(GrpcWebMode mode, string? roles, int status)
    {
        using var channel = GrpcChannel.ForAddress(_server.Http1Address, new GrpcChannelOptions
        {
            HttpHandler = new GrpcWebHandler(mode, new SocketsHttpHandler()),
            HttpVersion = HttpVersion.Version11,
            HttpVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        });
        var method = new Method<ContextRequest, ContextReply>(MethodType.Unary, "protohttp.tests.TestService", "Context",
            Marshallers.Create((ContextRequest m) => m.ToByteArray(), ContextRequest.Parser.ParseFrom),
            Marshallers.Create((ContextReply m) => m.ToByteArray(), ContextReply.Parser.ParseFrom));
        var headers = new Metadata();
        if (roles is not null)
        {
            headers.Add("X-Test-User", "ada");
            headers.Add("X-Test-Roles", roles);
        }

        var call = channel.CreateCallInvoker().AsyncUnaryCall(method, null, new CallOptions(headers), new ContextRequest());

        if (status == 0)
        {
            Assert.Equal("ada", (await call.ResponseAsync).User);
            return;
        }

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);
        Assert.Equal(status, (int)ex.StatusCode);
    }

    [Theory]
    [InlineData(Admins, null, HttpStatusCode.OK)]
    [InlineData(Private, null, HttpStatusCode.Unauthorized)]
    [InlineData(Private, "ada", HttpStatusCode.OK)]
    public async Task TheProtoFileEndpointFollowsItsOwnConventions(string prefix, string? user, HttpStatusCode expected)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, prefix);
        if (user is not null)
        {
            request.Headers.Add("X-Test-User", user);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(expected, response.StatusCode);
        if (expected == HttpStatusCode.OK)
        {
            Assert.Contains("service TestService", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task MethodsOfAServiceWhoseProtoFileIsGuardedStayOpen()
    {
        using var response = await _server.Client.SendAsync(Call($"{Private}/Context", "json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    private static void SignIn(System.Net.Http.Headers.HttpRequestHeaders headers, string? roles)
    {
        if (roles is not null)
        {
            headers.Add("X-Test-User", "ada");
            headers.Add("X-Test-Roles", roles);
        }
    }

    private static HttpRequestMessage Call(string path, string format)
    {
        if (format.StartsWith("get", StringComparison.Ordinal))
        {
            return new HttpRequestMessage(HttpMethod.Get, format == "get" ? path : path + ".json");
        }

        var body = format switch
        {
            "protobuf" => new ContextRequest().ToByteArray(),
            "json" => "{}"u8.ToArray(),
            "xml" => "<root/>"u8.ToArray(),
            _ => Encoding.ASCII.GetBytes("binary_header=AQI%3D"),
        };
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = new(format switch
        {
            "protobuf" => "application/x-protobuf",
            "json" => "application/json",
            "xml" => "application/xml",
            _ => "application/x-www-form-urlencoded",
        });
        return new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
    }
}

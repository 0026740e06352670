using System.Net;
using System.Text.Json;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// The test service mapped a second time under <c>/secure</c> with <c>RequireAuthorization()</c>; for Connect and
/// gRPC-Web, whose paths the first mapping of a service claims, a server where the guarded mapping is the only one.
/// </summary>
public sealed class AuthorizationTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string SecureContext = "/secure/test_service.proto/Context";
    private const string ConnectContext = "/protohttp.tests.TestService/Context";
    private const string Unauthenticated = "The call needs an authenticated caller; authenticate and call again.";

    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task RequireAuthorizationRefusesAnAnonymousCaller(string format)
    {
        using var response = await _server.Client.SendAsync(Wire.Post(SecureContext, new ContextRequest(), format));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Equal(format, response.Content.Headers.ContentType?.MediaType);
        var error = await Wire.ReadErrorAsync(response);
        Assert.Equal(("UNAUTHENTICATED", Unauthenticated), (error.Code, error.ErrorText));
    }

    [Fact]
    public async Task RequireAuthorizationAppliesToSuffixedAndUnknownMethodPathsToo()
    {
        using var suffixed = await _server.Client.SendAsync(Wire.Post(SecureContext + ".json", new ContextRequest(), "application/json"));
        using var unknown = await _server.Client.PostAsync("/secure/test_service.proto/Nope", content: null);

        Assert.Equal(HttpStatusCode.Unauthorized, suffixed.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, unknown.StatusCode);
        foreach (var response in new[] { suffixed, unknown })
        {
            var error = await Wire.ReadErrorAsync(response);
            Assert.Equal(("UNAUTHENTICATED", Unauthenticated), (error.Code, error.ErrorText));
        }
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/proto")]
    public async Task RequireAuthorizationRefusesAnAnonymousConnectCallerAndServesAnAuthenticatedOne(string contentType)
    {
        await using var server = await GuardedOnlyAsync();
        var body = contentType == "application/json" ? JsonFormatter.Default.Format(new ContextRequest()) : "";

        using var anonymous = await server.Client.SendAsync(ConnectPost(body, contentType, user: null));
        using var ada = await server.Client.SendAsync(ConnectPost(body, contentType, user: "ada"));

        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal("application/json", anonymous.Content.Headers.ContentType?.MediaType); // Connect's errors are JSON.
        using (var error = JsonDocument.Parse(await anonymous.Content.ReadAsStringAsync()))
        {
            Assert.Equal("unauthenticated", error.RootElement.GetProperty("code").GetString());
            Assert.Equal(Unauthenticated, error.RootElement.GetProperty("message").GetString());
        }

        Assert.Equal(HttpStatusCode.OK, ada.StatusCode);
        var reply = contentType == "application/json"
            ? JsonParser.Default.Parse<ContextReply>(await ada.Content.ReadAsStringAsync())
            : ContextReply.Parser.ParseFrom(await ada.Content.ReadAsByteArrayAsync());
        Assert.Equal("ada", reply.User);
    }

    [Theory]
    [InlineData("application/grpc-web+proto")]
    [InlineData("application/grpc-web-text")]
    public async Task RequireAuthorizationRefusesAnAnonymousGrpcWebCallerAndServesAnAuthenticatedOne(string contentType)
    {
        await using var server = await GuardedOnlyAsync();
        var frame = GrpcWebWire.Frame(new ContextRequest());
        var text = contentType.Contains("-text", StringComparison.Ordinal);
        var body = text ? System.Text.Encoding.ASCII.GetBytes(Convert.ToBase64String(frame)) : frame;

        using var anonymous = await server.Client.SendAsync(GrpcWebWire.Post(ConnectContext, body, contentType));
        var ada = GrpcWebWire.Post(ConnectContext, body, contentType);
        ada.Headers.Add("X-Test-User", "ada");
        using var served = await server.Client.SendAsync(ada);

        // ASP.NET Core's 401, which gRPC-Web clients read as UNAUTHENTICATED (docs/protocol.md section 12).
        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Equal(HeaderAuthenticationHandler.Challenge, anonymous.Headers.WwwAuthenticate.ToString());
        Assert.Empty(await anonymous.Content.ReadAsByteArrayAsync()); // No message frame: the service never ran.
        Assert.Equal(HttpStatusCode.OK, served.StatusCode);
        var (messages, trailers) = GrpcWebWire.Read(
            text ? GrpcWebWire.DecodeText(await served.Content.ReadAsStringAsync()) : await served.Content.ReadAsByteArrayAsync());
        Assert.Equal("ada", ContextReply.Parser.ParseFrom(Assert.Single(messages)).User);
        Assert.Equal("0", trailers["grpc-status"]);
    }

    private static Task<SampleServer> GuardedOnlyAsync() => SampleServer.StartAsync(
        mapTestServices: false, map: app => app.MapProtoService<ScriptedTestService>("/secure/test_service.proto").RequireAuthorization());

    private static HttpRequestMessage ConnectPost(string json, string contentType, string? user)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, ConnectContext)
        {
            Content = new ByteArrayContent(contentType == "application/json" ? System.Text.Encoding.UTF8.GetBytes(json) : []),
        };
        request.Content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(contentType);
        request.Headers.Add("Connect-Protocol-Version", "1");
        if (user is not null)
        {
            request.Headers.Add("X-Test-User", user);
        }

        return request;
    }

    [Fact]
    public async Task AnAuthenticatedCallerIsServedAndTheServiceSeesTheUser()
    {
        var request = Wire.Post(SecureContext, new ContextRequest(), "application/json");
        request.Headers.Add("X-Test-User", "ada");

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("ada", (await Wire.ReadAsync<ContextReply>(response)).User);
    }

    [Fact]
    public async Task TheProtoFileFollowsItsOwnSettingAndStaysPublic()
    {
        using var response = await _server.Client.GetAsync("/secure/test_service.proto");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("service TestService", await response.Content.ReadAsStringAsync());
    }
}

using System.Net;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests;

/// <summary>The test service mapped a second time under <c>/secure</c> with <c>RequireAuthorization()</c>.</summary>
public sealed class AuthorizationTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private const string SecureContext = "/secure/test_service.proto/Context";

    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task RequireAuthorizationRefusesAnAnonymousCaller(string format)
    {
        using var response = await _server.Client.SendAsync(Wire.Post(SecureContext, new ContextRequest(), format));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
    }

    [Fact]
    public async Task RequireAuthorizationAppliesToSuffixedAndUnknownMethodPathsToo()
    {
        using var suffixed = await _server.Client.SendAsync(Wire.Post(SecureContext + ".json", new ContextRequest(), "application/json"));
        using var unknown = await _server.Client.PostAsync("/secure/test_service.proto/Nope", content: null);

        Assert.Equal(HttpStatusCode.Unauthorized, suffixed.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, unknown.StatusCode);
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

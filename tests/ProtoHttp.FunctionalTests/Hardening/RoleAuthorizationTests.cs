using System.Net;
using System.Text;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// <c>MapProtoService&lt;T&gt;().RequireAuthorization(policy)</c> with a role: anonymous callers get 401 and callers
/// without the role 403, for every format and verb; the <c>.proto</c> endpoint follows its own conventions.
/// </summary>
public sealed class RoleAuthorizationTests : IAsyncLifetime
{
    private const string Admins = "/admins/test_service.proto";
    private const string Private = "/private/test_service.proto";

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
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
        if (roles is not null)
        {
            request.Headers.Add("X-Test-User", "ada");
            request.Headers.Add("X-Test-Roles", roles);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(expected, response.StatusCode);
        if (expected == HttpStatusCode.OK && format != "xml")
        {
            Assert.Equal("ada", (await Wire.ReadAsync<ContextReply>(response)).User);
        }
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

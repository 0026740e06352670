using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Connect;

/// <summary>
/// A browser page on another origin calling a Connect path: its preflight names Connect's headers and gets them
/// allowed by a policy built by <c>AddCorsPolicy</c> (the headers every protocol names); the call itself carries the CORS answer headers.
/// </summary>
public sealed class ConnectCorsTests : IAsyncLifetime
{
    private const string Origin = "https://shop.example";
    private const string Echo = "/protohttp.tests.TestService/Echo";

    private WebApplication _app = null!;
    private Uri _address = null!;

    public async Task InitializeAsync()
    {
        var port = LoopbackPort.Free();
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls($"http://127.0.0.1:{port}");
        builder.Services.AddSingleton<CallProbe>();
        builder.Services.AddProtoHttp().AddCorsPolicy("shop", policy => policy.WithOrigins(Origin).WithMethods("POST", "GET"));
        _app = builder.Build();
        _app.UseCors();
        _app.MapProtoService<ScriptedTestService>().RequireCors("shop");
        await _app.StartAsync();
        _address = new Uri($"http://127.0.0.1:{port}");
    }

    public async Task DisposeAsync() => await _app.DisposeAsync();

    [Fact]
    public async Task APreflightWithConnectsHeadersIsAllowed()
    {
        var preflight = new HttpRequestMessage(HttpMethod.Options, Echo);
        preflight.Headers.Add("Origin", Origin);
        preflight.Headers.Add("Access-Control-Request-Method", "POST");
        preflight.Headers.Add("Access-Control-Request-Headers", "content-type,connect-protocol-version,connect-timeout-ms");

        using var client = new HttpClient { BaseAddress = _address };
        using var response = await client.SendAsync(preflight);

        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
        Assert.Equal(Origin, Assert.Single(response.Headers.GetValues("Access-Control-Allow-Origin")));
        var allowed = string.Join(",", response.Headers.GetValues("Access-Control-Allow-Headers")).ToLowerInvariant();
        Assert.Contains("connect-protocol-version", allowed);
        Assert.Contains("connect-timeout-ms", allowed);
    }

    [Fact]
    public async Task APreflightFromAnotherOriginIsNotAllowed()
    {
        var preflight = new HttpRequestMessage(HttpMethod.Options, Echo);
        preflight.Headers.Add("Origin", "https://evil.example");
        preflight.Headers.Add("Access-Control-Request-Method", "POST");

        using var client = new HttpClient { BaseAddress = _address };
        using var response = await client.SendAsync(preflight);

        Assert.False(response.Headers.Contains("Access-Control-Allow-Origin"));
    }

    [Fact]
    public async Task TheCallCarriesTheCorsAnswer()
    {
        var call = new HttpRequestMessage(HttpMethod.Post, Echo) { Content = Wire.Body(new Tree { Name = "x" }, "application/json") };
        call.Headers.Add("Origin", Origin);
        call.Headers.Add("Connect-Protocol-Version", "1");

        using var client = new HttpClient { BaseAddress = _address };
        using var response = await client.SendAsync(call);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(Origin, Assert.Single(response.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.Contains("Connect-Content-Encoding", string.Join(",", response.Headers.GetValues("Access-Control-Expose-Headers")));
    }

}

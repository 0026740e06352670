using System.Net;
using System.Text.Json;
using System.Xml.Linq;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// <c>UseExceptionHandler</c> + <c>UseStatusCodePages</c> + ProblemDetails, as a new app's template sets them up: ProtoHttp's
/// errors keep their ErrorResult (or Connect error) bodies in the negotiated format; the app's handlers see no
/// exception and write nothing over them, while other endpoints still get ProblemDetails.
/// </summary>
public sealed class ErrorHandlingTests : IAsyncLifetime
{
    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(
        services: services => services.AddProblemDetails(),
        pipeline: app =>
        {
            app.UseExceptionHandler();
            app.UseStatusCodePages();
        });

    public async Task DisposeAsync() => await _app.DisposeAsync();

    public static TheoryData<string, HttpStatusCode, string> Failures => new()
    {
        { $"{MiddlewareApp.Prefix}/Fail?code=", HttpStatusCode.InternalServerError, "UNKNOWN" },
        { $"{MiddlewareApp.Prefix}/Fail?code=NOT_FOUND", HttpStatusCode.NotFound, "NOT_FOUND" },
        { $"{MiddlewareApp.Prefix}/Nope", HttpStatusCode.NotFound, "NOT_FOUND" },
        { $"{MiddlewareApp.Prefix}/Lookup?nope=1", HttpStatusCode.BadRequest, "INVALID_ARGUMENT" },
    };

    [Theory]
    [MemberData(nameof(Failures))]
    public async Task ProtoHttpsErrorsKeepTheirErrorResultInJson(string path, HttpStatusCode status, string code)
    {
        using var response = await SendAsync(path, "application/json");

        Assert.Equal(status, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(code, (await Wire.ReadErrorAsync(response)).Code);
    }

    [Theory]
    [MemberData(nameof(Failures))]
    public async Task ProtoHttpsErrorsKeepTheirErrorResultInXml(string path, HttpStatusCode status, string code)
    {
        using var response = await SendAsync(path, "application/xml");

        Assert.Equal(status, response.StatusCode);
        Assert.Equal("application/xml", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(code, XDocument.Parse(await response.Content.ReadAsStringAsync()).Root!.Element("code")!.Value);
    }

    [Fact]
    public async Task AServiceFailureReachesNeitherTheExceptionHandlerNorItsLog()
    {
        using var response = await SendAsync($"{MiddlewareApp.Prefix}/Fail?code=", "application/json");

        Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
        Assert.Single(await _app.Logs.ErrorsOnceEndedAsync(), e => e.Category.StartsWith("ProtoHttp", StringComparison.Ordinal));
        Assert.DoesNotContain(_app.Logs.Entries, e => e.Category.Contains("ExceptionHandler", StringComparison.Ordinal));
    }

    [Fact]
    public async Task AConnectErrorKeepsConnectsBody()
    {
        using var request = Wire.Post($"{MiddlewareApp.ConnectPrefix}/Fail", new FailRequest { Code = "NOT_FOUND" }, "application/json");

        using var response = await _app.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        using var error = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal("not_found", error.RootElement.GetProperty("code").GetString());
    }

    [Fact]
    public async Task OtherEndpointsStillGetProblemDetails()
    {
        using var response = await SendAsync("/nowhere", "application/json");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
    }

    private async Task<HttpResponseMessage> SendAsync(string path, string accept)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Accept.ParseAdd(accept);
        return await _app.Client.SendAsync(request);
    }
}

using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// A method behind both <c>.CacheOutput()</c> and <c>.RequireAuthorization()</c>, the middleware in ASP.NET Core's
/// order (authentication and authorization, then the output cache): an answer made for one signed-in caller is never
/// handed to another or to an anonymous one. ASP.NET Core's default policy does not store authenticated requests'
/// answers, and ProtoHttp's policy (docs/protocol.md section 11) wraps the app's without turning caching back on.
/// </summary>
public sealed class OutputCacheAuthorizationTests : IAsyncLifetime
{
    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(
        services: services =>
        {
            HeaderAuthenticationHandler.AddTo(services);
            services.AddAuthorization();
            services.AddOutputCache();
        },
        pipeline: app =>
        {
            app.UseAuthentication();
            app.UseAuthorization();
            app.UseOutputCache();
        },
        conventions: service => service.CacheOutput().RequireAuthorization());

    public async Task DisposeAsync() => await _app.DisposeAsync();

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task ASignedInCallersAnswerReachesNoOtherCaller(string accept)
    {
        var path = $"{MiddlewareApp.Prefix}/Lookup?key={Guid.NewGuid():N}";

        var ada = await SerialAsync(path, accept, "ada");
        var adaAgain = await SerialAsync(path, accept, "ada");
        var bob = await SerialAsync(path, accept, "bob");
        using var anonymous = await SendAsync(path, accept, user: null);

        Assert.Equal(3, new[] { ada, adaAgain, bob }.Distinct().Count()); // The service ran for each: nothing stored was served.
        await ErrorTests.AssertErrorAsync(anonymous, HttpStatusCode.Unauthorized, "UNAUTHENTICATED",
            "The call needs an authenticated caller; authenticate and call again.", accept);
        Assert.Empty(await _app.Logs.ErrorsOnceEndedAsync());
    }

    private async Task<long> SerialAsync(string path, string accept, string user)
    {
        using var response = await SendAsync(path, accept, user);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Null(response.Headers.Age); // Not an answer from the cache.
        return (await Wire.ReadAsync<LookupReply>(response)).Serial;
    }

    private Task<HttpResponseMessage> SendAsync(string path, string accept, string? user)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Accept.ParseAdd(accept);
        if (user is not null)
        {
            request.Headers.Add("X-Test-User", user);
        }

        return _app.Client.SendAsync(request);
    }
}

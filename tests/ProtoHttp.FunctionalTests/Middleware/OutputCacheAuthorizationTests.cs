using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// A method behind <c>.CacheOutput()</c> in an app that authenticates its callers, the middleware in ASP.NET Core's
/// order (authentication and authorization, then the output cache): an answer made for one signed-in caller is never
/// handed to another, nor to the same one again, nor to an anonymous one; an anonymous caller's answer is. ASP.NET
/// Core's default policy does not look up or store authenticated requests' answers, and ProtoHttp's policy (docs/protocol.md
/// section 11) wraps the app's without turning either back on. The service's serial tells a stored answer (a serial
/// seen before, with an <c>Age</c>) from one the service gave; the key of every call here is the same path, query and
/// Accept, so only the policy keeps one caller's answer from another.
/// </summary>
public sealed class OutputCacheAuthorizationTests : IAsyncLifetime
{
    private MiddlewareApp _protected = null!;
    private MiddlewareApp _open = null!;

    public async Task InitializeAsync()
    {
        _protected = await StartAsync(service => service.CacheOutput().RequireAuthorization());
        _open = await StartAsync(service => service.CacheOutput());
    }

    public async Task DisposeAsync()
    {
        await _protected.DisposeAsync();
        await _open.DisposeAsync();
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task ASignedInCallersAnswerReachesNoOtherCaller(string accept)
    {
        var path = $"{MiddlewareApp.Prefix}/Lookup?key={Guid.NewGuid():N}";

        var ada = await FreshAsync(_protected, path, accept, "ada");
        var adaAgain = await FreshAsync(_protected, path, accept, "ada");
        var bob = await FreshAsync(_protected, path, accept, "bob");
        using var anonymous = await SendAsync(_protected, path, accept, user: null);

        Assert.Equal(3, new[] { ada, adaAgain, bob }.Distinct().Count()); // The service ran for each: nothing stored was served.
        await ErrorTests.AssertErrorAsync(anonymous, HttpStatusCode.Unauthorized, "UNAUTHENTICATED",
            "The call needs an authenticated caller; authenticate and call again.", accept);
        Assert.Empty(await _protected.Logs.ErrorsOnceEndedAsync());
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task AnAnonymousAnswerIsStoredAndNeverServedToASignedInCaller(string accept)
    {
        var path = $"{MiddlewareApp.Prefix}/Lookup?key={Guid.NewGuid():N}";

        var anonymous = await FreshAsync(_open, path, accept, user: null);
        var (stored, age) = await CallAsync(_open, path, accept, user: null);
        var ada = await FreshAsync(_open, path, accept, "ada");
        var adaAgain = await FreshAsync(_open, path, accept, "ada");

        // The cache is on and the key is the caller's nothing: the second anonymous call got the first one's answer.
        Assert.Equal(anonymous, stored);
        Assert.NotNull(age);
        Assert.Equal(3, new[] { anonymous, ada, adaAgain }.Distinct().Count()); // Signed in: neither looked up nor stored.
        Assert.Empty(await _open.Logs.ErrorsOnceEndedAsync());
    }

    private static Task<MiddlewareApp> StartAsync(Action<ProtoServiceEndpointConventionBuilder> conventions) => MiddlewareApp.StartAsync(
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
        conventions: conventions);

    /// <summary>Calls and checks that the service answered, not the cache; returns the answer's serial.</summary>
    private static async Task<long> FreshAsync(MiddlewareApp app, string path, string accept, string? user)
    {
        var (serial, age) = await CallAsync(app, path, accept, user);
        Assert.True(age is null, $"{user ?? "An anonymous caller"} got a stored answer (serial {serial}, Age {age}).");
        return serial;
    }

    private static async Task<(long Serial, TimeSpan? Age)> CallAsync(MiddlewareApp app, string path, string accept, string? user)
    {
        using var response = await SendAsync(app, path, accept, user);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return ((await Wire.ReadAsync<LookupReply>(response)).Serial, response.Headers.Age);
    }

    private static Task<HttpResponseMessage> SendAsync(MiddlewareApp app, string path, string accept, string? user)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.Accept.ParseAdd(accept);
        if (user is not null)
        {
            request.Headers.Add("X-Test-User", user);
        }

        return app.Client.SendAsync(request);
    }
}

using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// The app's own rules hold on REST routes as on every route of the service (docs/protocol.md section 14): CORS
/// (preflight and call, allowed and refused origin), the service's rate-limiter policy (429), ProtoHttp's body limit
/// on a body rule (413 with an ErrorResult, never 500) and an authorization policy (401, 403).
/// </summary>
public sealed class RestHostRulesTests
{
    private const string AllowedOrigin = "https://shelves.example";
    private const string Book = "/v1/shelves/s1/books/b1";

    [Fact]
    public async Task CorsAllowsThePolicysOriginOnARestRouteAndNoOther()
    {
        await using var app = await RestServers.StartAsync(
            builder =>
            {
                builder.Services.AddCors(o => o.AddPolicy("shelves", p => p.WithOrigins(AllowedOrigin).AllowAnyHeader().WithMethods("GET", "PATCH")));
                builder.Services.AddProtoHttp();
            },
            app =>
            {
                app.UseCors();
                app.MapProtoService<LibraryService>().RequireCors("shelves");
            });
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };

        using var allowedPreflight = await client.SendAsync(Preflight(AllowedOrigin, "PATCH"));
        using var refusedPreflight = await client.SendAsync(Preflight("https://evil.example", "PATCH"));
        using var allowedCall = await client.SendAsync(Patch(AllowedOrigin));
        using var refusedCall = await client.SendAsync(Patch("https://evil.example"));

        Assert.Equal(HttpStatusCode.NoContent, allowedPreflight.StatusCode);
        Assert.Equal(AllowedOrigin, Assert.Single(allowedPreflight.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.Contains("PATCH", allowedPreflight.Headers.GetValues("Access-Control-Allow-Methods").Single(), StringComparison.Ordinal);
        Assert.False(refusedPreflight.Headers.Contains("Access-Control-Allow-Origin"));
        Assert.Equal(HttpStatusCode.OK, allowedCall.StatusCode);
        Assert.Equal(AllowedOrigin, Assert.Single(allowedCall.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.False(refusedCall.Headers.Contains("Access-Control-Allow-Origin"));
    }

    [Fact]
    public async Task TheServicesRateLimiterPolicyRefusesTheRestRouteWith429()
    {
        await using var app = await RestServers.StartAsync(
            builder =>
            {
                builder.Services.AddRateLimiter(o =>
                {
                    o.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
                    o.AddFixedWindowLimiter("one-a-minute", w => (w.PermitLimit, w.Window, w.QueueLimit) = (1, TimeSpan.FromMinutes(1), 0));
                });
                builder.Services.AddProtoHttp();
            },
            app =>
            {
                app.UseRateLimiter();
                app.MapProtoService<LibraryService>().RequireRateLimiting("one-a-minute");
            });
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };

        using var first = await client.GetAsync("/v1/shelves/s1");
        using var second = await client.GetAsync("/v1/shelves/s1");
        using var anotherRoute = await client.GetAsync(Book);

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        Assert.Equal(HttpStatusCode.TooManyRequests, second.StatusCode);
        Assert.Equal(HttpStatusCode.TooManyRequests, anotherRoute.StatusCode);
    }

    [Fact]
    public async Task ABodyOverTheLimitOnABodyRuleIs413WithAnErrorResult()
    {
        await using var app = await RestServers.StartAsync(
            builder => builder.Services.AddProtoHttp(o => o.MaxRequestBodySize = 100),
            app => app.MapProtoService<LibraryService>());
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };
        var title = new string('x', 200);

        using var bodyField = await client.PostAsync("/v1/shelves/s1/books?book_id=b2", Json($$"""{"title":"{{title}}"}"""));
        using var wholeBody = await client.PutAsync("/v1/shelves/s1", Json($$"""{"theme":"{{title}}"}"""));
        using var httpBody = await client.PostAsync(Book + "/cover", new ByteArrayContent(new byte[200]) { Headers = { ContentType = new MediaTypeHeaderValue("image/png") } });
        using var xml = new HttpRequestMessage(HttpMethod.Post, "/v1/shelves/s1/books?book_id=b2") { Content = Json($$"""{"title":"{{title}}"}""") };
        xml.Headers.Accept.ParseAdd("application/xml");
        using var inXml = await client.SendAsync(xml);
        using var underTheLimit = await client.PostAsync("/v1/shelves/s1/books?book_id=b2", Json("""{"title":"short"}"""));

        const string TooLarge = "The request body is larger than the limit of 100 bytes.";
        await ErrorTests.AssertErrorAsync(bodyField, HttpStatusCode.RequestEntityTooLarge, "RESOURCE_EXHAUSTED", TooLarge);
        await ErrorTests.AssertErrorAsync(wholeBody, HttpStatusCode.RequestEntityTooLarge, "RESOURCE_EXHAUSTED", TooLarge);
        await ErrorTests.AssertErrorAsync(httpBody, HttpStatusCode.RequestEntityTooLarge, "RESOURCE_EXHAUSTED", TooLarge);
        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, inXml.StatusCode);
        Assert.Equal("application/xml", inXml.Content.Headers.ContentType?.MediaType);
        Assert.Contains("RESOURCE_EXHAUSTED", await inXml.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, underTheLimit.StatusCode);
    }

    [Fact]
    public async Task AnAuthorizationPolicyAnswers401And403OnRestRoutes()
    {
        await using var app = await RestServers.StartAsync(
            builder =>
            {
                HeaderAuthenticationHandler.AddTo(builder.Services);
                builder.Services.AddAuthorization();
                builder.Services.AddProtoHttp();
            },
            app => app.MapProtoService<LibraryService>().RequireAuthorization(p => p.RequireRole("librarian")));
        using var client = new HttpClient { BaseAddress = new Uri(app.Urls.First()) };

        using var anonymous = await client.SendAsync(Signed(null));
        using var reader = await client.SendAsync(Signed("reader"));
        using var librarian = await client.SendAsync(Signed("librarian"));

        await ErrorTests.AssertErrorAsync(anonymous, HttpStatusCode.Unauthorized, "UNAUTHENTICATED");
        await ErrorTests.AssertErrorAsync(reader, HttpStatusCode.Forbidden, "PERMISSION_DENIED");
        Assert.Equal(HttpStatusCode.OK, librarian.StatusCode);

        static HttpRequestMessage Signed(string? roles)
        {
            var request = new HttpRequestMessage(HttpMethod.Delete, Book);
            if (roles is not null)
            {
                request.Headers.Add("X-Test-User", "ada");
                request.Headers.Add("X-Test-Roles", roles);
            }

            return request;
        }
    }

    private static HttpRequestMessage Preflight(string origin, string verb)
    {
        var preflight = new HttpRequestMessage(HttpMethod.Options, Book);
        preflight.Headers.Add("Origin", origin);
        preflight.Headers.Add("Access-Control-Request-Method", verb);
        preflight.Headers.Add("Access-Control-Request-Headers", "content-type");
        return preflight;
    }

    private static HttpRequestMessage Patch(string origin)
    {
        var request = new HttpRequestMessage(HttpMethod.Patch, Book) { Content = Json("""{"title":"t"}""") };
        request.Headers.Add("Origin", origin);
        return request;
    }

    private static StringContent Json(string json) => new(json, Encoding.UTF8, "application/json");
}

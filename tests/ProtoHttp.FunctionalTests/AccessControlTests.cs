using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;
using SearchService.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>Authorization attributes, CORS with real preflight requests, and the GET restriction, on real Kestrel.</summary>
public sealed class AccessControlTests : IAsyncLifetime
{
    private const string AllowedOrigin = "http://allowed.example";

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        configure: builder =>
        {
            builder.Services.AddCors(o => o.AddPolicy("search-page", p => p.WithOrigins(AllowedOrigin).AllowAnyHeader().WithMethods("GET", "POST")));
            builder.Services.AddProtoHttp().AddServiceOptions<NorthwindOrdersService>(o => o.RestrictGetToNoSideEffectMethods = true);
            builder.Services.AddRateLimiter(o =>
            {
                o.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
                o.AddFixedWindowLimiter("one-a-minute", w => (w.PermitLimit, w.Window, w.QueueLimit) = (1, TimeSpan.FromMinutes(1), 0));
            });
        },
        map: app =>
        {
            app.MapProtoService<GuardedTestService>("/guarded/test_service.proto");
            app.MapProtoService<ScriptedTestService>("/cors/test_service.proto").RequireCors("search-page");
            app.MapProtoService<ScriptedTestService>("/limited/test_service.proto").RequireRateLimiting("one-a-minute");
        });

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Theory]
    [InlineData("Context", null, null, HttpStatusCode.Unauthorized)]
    [InlineData("Context", "ada", null, HttpStatusCode.OK)]
    [InlineData("Fail", null, null, HttpStatusCode.Unauthorized)]
    [InlineData("Fail", "ada", "reader", HttpStatusCode.Forbidden)]
    [InlineData("Fail", "ada", "admin", HttpStatusCode.NotFound)]
    [InlineData("Slow", null, null, HttpStatusCode.OK)]
    public async Task AuthorizeAttributesOnTheClassAndMethodAreHonoured(string method, string? user, string? roles, HttpStatusCode expected)
    {
        foreach (var format in new[] { "application/json", "application/x-protobuf" })
        {
            var request = Wire.Post($"/guarded/test_service.proto/{method}", new FailRequest(), format);
            if (user is not null)
            {
                request.Headers.Add("X-Test-User", user);
            }

            if (roles is not null)
            {
                request.Headers.Add("X-Test-Roles", roles);
            }

            using var response = await _server.Client.SendAsync(request);

            Assert.Equal(expected, response.StatusCode);
        }
    }

    [Fact]
    public async Task APreflightFromTheConfiguredOriginIsAllowed()
    {
        var preflight = new HttpRequestMessage(HttpMethod.Options, "/cors/test_service.proto/Context");
        preflight.Headers.Add("Origin", AllowedOrigin);
        preflight.Headers.Add("Access-Control-Request-Method", "POST");
        preflight.Headers.Add("Access-Control-Request-Headers", "content-type");

        using var response = await _server.Client.SendAsync(preflight);

        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
        Assert.Equal(AllowedOrigin, Assert.Single(response.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.Contains("POST", response.Headers.GetValues("Access-Control-Allow-Methods").Single());
    }

    [Fact]
    public async Task TheCrossOriginCallThatFollowsCarriesTheAllowOriginHeader()
    {
        var request = Wire.Post("/cors/test_service.proto/Context", new ContextRequest(), "application/json");
        request.Headers.Add("Origin", AllowedOrigin);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(AllowedOrigin, Assert.Single(response.Headers.GetValues("Access-Control-Allow-Origin")));
    }

    [Fact]
    public async Task AnotherOriginGetsNoCorsHeadersSoTheBrowserRefusesIt()
    {
        var preflight = new HttpRequestMessage(HttpMethod.Options, "/cors/test_service.proto/Context");
        preflight.Headers.Add("Origin", "http://evil.example");
        preflight.Headers.Add("Access-Control-Request-Method", "POST");
        var call = Wire.Post("/cors/test_service.proto/Context", new ContextRequest(), "application/json");
        call.Headers.Add("Origin", "http://evil.example");

        using var preflightResponse = await _server.Client.SendAsync(preflight);
        using var callResponse = await _server.Client.SendAsync(call);

        Assert.False(preflightResponse.Headers.Contains("Access-Control-Allow-Origin"));
        Assert.False(callResponse.Headers.Contains("Access-Control-Allow-Origin"));
    }

    [Fact]
    public async Task RequireRateLimitingAppliesToEveryMethodOfTheService()
    {
        using var first = await _server.Client.SendAsync(Wire.Post("/limited/test_service.proto/Context", new ContextRequest(), "application/json"));
        using var second = await _server.Client.SendAsync(Wire.Post("/limited/test_service.proto/Slow", new SlowRequest(), "application/json"));

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        Assert.Equal(HttpStatusCode.TooManyRequests, second.StatusCode);
    }

    [Fact]
    public async Task GetCanBeRestrictedToMethodsWithoutSideEffects()
    {
        using var getOrders = await _server.Client.GetAsync("/Northwind.proto/GetOrders");
        using var roundtrip = await _server.Client.GetAsync("/Northwind.proto/Roundtrip");
        using var postRoundtrip = await _server.Client.SendAsync(Wire.Post("/Northwind.proto/Roundtrip", new OrderList(), "application/x-protobuf"));

        Assert.Equal(HttpStatusCode.OK, getOrders.StatusCode);
        Assert.Equal(830, (await Wire.ReadAsync<OrderList>(getOrders)).Orders.Count);
        await ErrorTests.AssertErrorAsync(roundtrip, HttpStatusCode.MethodNotAllowed, "UNIMPLEMENTED", "The HTTP method GET is not allowed here; use POST.");
        Assert.Equal(["POST"], roundtrip.Content.Headers.Allow);
        Assert.Equal(HttpStatusCode.OK, postRoundtrip.StatusCode);
    }

    [Fact]
    public async Task ByDefaultGetCallsEveryMethod()
    {
        await using var server = await SampleServer.StartAsync();
        // A GET and what its answer must hold, for each unary method of the sample's two services: side effects
        // (Roundtrip, Search: no idempotency option) or not (GetOrders, FindOrders).
        var calls = new Dictionary<string, (string Get, Func<HttpResponseMessage, Task> Check)>
        {
            ["Northwind.NorthwindService.GetOrders"] = ("/Northwind.proto/GetOrders", async r => Assert.Equal(830, (await Wire.ReadAsync<OrderList>(r)).Orders.Count)),
            // A repeated message field cannot be bound from a query (docs/protocol.md section 4): the empty list comes back.
            ["Northwind.NorthwindService.Roundtrip"] = ("/Northwind.proto/Roundtrip", async r => Assert.Empty((await Wire.ReadAsync<OrderList>(r)).Orders)),
            ["Northwind.NorthwindService.FindOrders"] = ("/Northwind.proto/FindOrders?customer_ids=VINET&limit=1", async r => Assert.Equal("VINET", Assert.Single((await Wire.ReadAsync<OrderList>(r)).Orders).CustomerId)),
            ["ProtoService.SearchService.Search"] = ("/ProtoService.proto/Search?query=chai", async r => Assert.Equal("Chai", (await Wire.ReadAsync<ProtoService.SearchResponse>(r)).Result[0].Title)),
        };
        var unary = NorthwindService.Descriptor.Methods.Concat(ProtoService.SearchService.Descriptor.Methods)
            .Where(m => !m.IsClientStreaming && !m.IsServerStreaming).Select(m => m.FullName);
        Assert.Equal(unary.Order(), calls.Keys.Order()); // A new method gets a row here, or this test says it was left out.

        foreach (var (method, (get, check)) in calls)
        {
            using var response = await server.Client.GetAsync(get);

            Assert.True(response.StatusCode == HttpStatusCode.OK, $"GET {get} ({method}) answered {response.StatusCode}.");
            await check(response);
        }
    }
}

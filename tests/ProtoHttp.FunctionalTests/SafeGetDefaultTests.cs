using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using SearchService.Services;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// GET when a browser sends credentials by itself: with cookie authentication or antiforgery in the app, a cross-site
/// link could call a method through GET with the user's cookie, so GET reaches only methods marked NO_SIDE_EFFECTS
/// unless the service opts in.
/// </summary>
public sealed class SafeGetDefaultTests
{
    public enum Credentials
    {
        CookieAuthentication,
        Antiforgery,
    }

    private static void Use(Credentials credentials, WebApplicationBuilder builder)
    {
        if (credentials == Credentials.CookieAuthentication)
        {
            builder.Services.AddAuthentication().AddCookie();
        }
        else
        {
            builder.Services.AddAntiforgery();
        }
    }

    [Theory]
    [InlineData(Credentials.CookieAuthentication)]
    [InlineData(Credentials.Antiforgery)]
    public async Task GetReachesOnlyMethodsWithoutSideEffects(Credentials credentials)
    {
        await using var server = await SampleServer.StartAsync(
            configure: builder => Use(credentials, builder),
            // After authentication and authorization, as ASP.NET Core asks when the app calls UseRouting itself.
            map: app =>
            {
                if (credentials == Credentials.Antiforgery)
                {
                    app.UseAntiforgery();
                }
            });

        using var getOrders = await server.Client.GetAsync("/Northwind.proto/GetOrders");
        using var roundtrip = await server.Client.GetAsync("/Northwind.proto/Roundtrip");
        using var postRoundtrip = await server.Client.SendAsync(Wire.Post("/Northwind.proto/Roundtrip", new OrderList(), "application/x-protobuf"));

        Assert.Equal(HttpStatusCode.OK, getOrders.StatusCode);
        await ErrorTests.AssertErrorAsync(roundtrip, HttpStatusCode.MethodNotAllowed, "UNIMPLEMENTED", "The HTTP method GET is not allowed here; use POST.");
        Assert.Equal(["POST"], roundtrip.Content.Headers.Allow);
        Assert.Equal(HttpStatusCode.OK, postRoundtrip.StatusCode);
    }

    [Fact]
    public async Task AServiceOptsInToGetForEveryMethodForItselfAlone()
    {
        await using var server = await SampleServer.StartAsync(configure: builder =>
        {
            Use(Credentials.CookieAuthentication, builder);
            builder.Services.AddProtoHttp().AddServiceOptions<NorthwindOrdersService>(o => o.RestrictGetToNoSideEffectMethods = false);
        });

        using var roundtrip = await server.Client.GetAsync("/Northwind.proto/Roundtrip");
        using var search = await server.Client.GetAsync("/ProtoService.proto/Search?query=chai");

        Assert.Equal(HttpStatusCode.OK, roundtrip.StatusCode);
        Assert.Equal(HttpStatusCode.MethodNotAllowed, search.StatusCode);
    }
}

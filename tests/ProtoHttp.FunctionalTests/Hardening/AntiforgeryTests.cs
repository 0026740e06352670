using System.Net;
using System.Security.Claims;
using System.Text;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// An application with cookie authentication and antiforgery, as a browser sees it: a real sign-in cookie, a real
/// antiforgery cookie and form field. Form posts need the token; JSON and protobuf, which a cross-site form cannot send, do not.
/// </summary>
public sealed class AntiforgeryTests : IAsyncLifetime, IDisposable
{
    private const string Slow = "/forms/test_service.proto/Slow";

    private SampleServer _server = null!;
    private HttpClient _browser = null!;

    public async Task InitializeAsync()
    {
        _server = await SampleServer.StartAsync(
            configure: builder =>
            {
                builder.Services.AddAuthentication(o => o.DefaultScheme = CookieAuthenticationDefaults.AuthenticationScheme).AddCookie();
                builder.Services.AddAntiforgery();
            },
            map: app =>
            {
                // After authentication and authorization, as ASP.NET Core asks when the app calls UseRouting itself.
                app.UseAntiforgery();
                app.MapProtoService<ScriptedTestService>("/forms/test_service.proto").RequireAuthorization();
                app.MapGet("/test/sign-in", async context =>
                {
                    var identity = new ClaimsIdentity([new Claim(ClaimTypes.Name, "ada")], CookieAuthenticationDefaults.AuthenticationScheme);
                    await context.SignInAsync(CookieAuthenticationDefaults.AuthenticationScheme, new ClaimsPrincipal(identity));
                });
                // What a page that renders the form would do: the cookie half in Set-Cookie, the form half in the page.
                app.MapGet("/test/antiforgery", (HttpContext context, IAntiforgery antiforgery) =>
                    antiforgery.GetAndStoreTokens(context).RequestToken!).RequireAuthorization();
            });

        // A browser's cookie jar; redirects off, so a missing sign-in shows as the challenge itself.
        _browser = new HttpClient(new HttpClientHandler { CookieContainer = new CookieContainer(), AllowAutoRedirect = false }) { BaseAddress = _server.Http1Address };
        using var signIn = await _browser.GetAsync("/test/sign-in");
        signIn.EnsureSuccessStatusCode();
    }

    public async Task DisposeAsync() => await _server.DisposeAsync();

    public void Dispose() => _browser.Dispose();

    [Fact]
    public async Task AFormPostWithoutTheTokenIsRefusedWith400()
    {
        using var response = await _browser.PostAsync(Slow, Form("delay_ms=1"));

        var error = await ErrorTests.AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
        Assert.StartsWith("The form post has no valid antiforgery token", error.ErrorText, StringComparison.Ordinal);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AFormPostWithAForgedTokenIsRefusedWith400()
    {
        await TokenAsync(); // The antiforgery cookie is there; the field is not its pair.

        using var response = await _browser.PostAsync(Slow, Form("delay_ms=1&__RequestVerificationToken=CfDJ8forged"));

        await ErrorTests.AssertErrorAsync(response, HttpStatusCode.BadRequest, "INVALID_ARGUMENT");
    }

    [Fact]
    public async Task AFormPostWithTheCookieAndTheFieldIsServed()
    {
        var token = await TokenAsync();

        using var response = await _browser.PostAsync(Slow, Form($"delay_ms=1&__RequestVerificationToken={Uri.EscapeDataString(token)}"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True((await Wire.ReadAsync<SlowReply>(response)).Completed);
    }

    [Fact]
    public async Task TheExplorerPageFormCarriesTheTokenSoItsPostIsServed()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/forms/test_service.proto");
        request.Headers.TryAddWithoutValidation("Accept", XmlAndFormTests.BrowserAccept);
        using var page = await _browser.SendAsync(request);
        var form = HtmlForm.Find(await page.Content.ReadAsStringAsync(), "TestService.Slow");
        Assert.Contains(form.Controls, c => c.Name == "__RequestVerificationToken" && c.Type == "hidden");
        form.Controls.Single(c => c.Name == "delay_ms").Filled.Add("1");

        using var response = await _browser.PostAsync(form.Action, new FormUrlEncodedContent(form.Pairs()));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True((await Wire.ReadAsync<SlowReply>(response)).Completed);
    }

    [Fact]
    public async Task JsonNeedsNoTokenSinceNoCrossSiteFormCanSendIt()
    {
        using var response = await _browser.SendAsync(Wire.Post(Slow, new SlowRequest { DelayMs = 1 }, "application/json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task WithoutTheSignInCookieTheCallIsChallenged()
    {
        using var stranger = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = _server.Http1Address };

        using var response = await stranger.PostAsync(Slow, Form("delay_ms=1"));

        Assert.Equal(HttpStatusCode.Redirect, response.StatusCode); // Cookie authentication's challenge: to the login page.
    }

    private async Task<string> TokenAsync()
    {
        var token = await _browser.GetStringAsync("/test/antiforgery");
        Assert.False(string.IsNullOrEmpty(token));
        return token;
    }

    // As a browser sends a form: no charset parameter.
    private static ByteArrayContent Form(string body)
    {
        var content = new ByteArrayContent(Encoding.ASCII.GetBytes(body));
        content.Headers.ContentType = new("application/x-www-form-urlencoded");
        return content;
    }
}

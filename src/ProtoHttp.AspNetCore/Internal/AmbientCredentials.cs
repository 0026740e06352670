using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Whether the app trusts credentials a browser sends on its own, on any request to the site: cookie authentication,
/// or antiforgery (which apps add because they use such credentials). A cross-site GET carries them too.
/// </summary>
internal static class AmbientCredentials
{
    public static bool InUse(IServiceProvider services)
    {
        if (services.GetService<IAntiforgery>() is not null)
        {
            return true;
        }

        // Schemes are registered before the app is built, so the ones there when services are mapped are the app's.
        // The scheme provider answers from memory; its async signature is for providers that load schemes elsewhere.
        var schemes = services.GetService<IAuthenticationSchemeProvider>()?.GetAllSchemesAsync().GetAwaiter().GetResult() ?? [];
        return schemes.Any(scheme => typeof(CookieAuthenticationHandler).IsAssignableFrom(scheme.HandlerType));
    }
}

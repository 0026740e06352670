using System.Threading.RateLimiting;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// Authorization and rate limiting as an app sets them up, for the refusal tests of both test projects (with
/// <see cref="HeaderAuthenticationHandler"/> for authentication): an <c>admin</c> policy, and a limiter that lets one
/// call through per <c>X-Test-Limit</c> key and refuses the next, with ProtoHttp's rejections chained after the app's
/// own <c>OnRejected</c>.
/// </summary>
public static class GuardedApp
{
    public const string AdminPolicy = "admin";

    public const string LimitPolicy = "one-per-key";

    /// <summary>The header whose value is the limiter's partition: a fresh key lets one call through.</summary>
    public const string LimitHeader = "X-Test-Limit";

    /// <summary>The header the app's own <c>OnRejected</c> sets, to show it still runs.</summary>
    public const string AppRejectionHeader = "X-App-OnRejected";

    public static void AddGuards(WebApplicationBuilder builder)
    {
        builder.Services.AddAuthorization(o => o.AddPolicy(AdminPolicy, p => p.RequireRole("admin")));
        builder.Services.AddRateLimiter(o =>
        {
            o.OnRejected = (rejected, _) =>
            {
                rejected.HttpContext.Response.Headers[AppRejectionHeader] = "ran";
                return ValueTask.CompletedTask;
            };
            o.AddPolicy(LimitPolicy, context => context.Request.Headers[LimitHeader].ToString() is { Length: > 0 } key
                ? RateLimitPartition.GetFixedWindowLimiter(key, _ => new FixedWindowRateLimiterOptions { PermitLimit = 1, Window = TimeSpan.FromHours(1) })
                : RateLimitPartition.GetNoLimiter(string.Empty));
            o.AddProtoHttpRejections();
        });
    }
}

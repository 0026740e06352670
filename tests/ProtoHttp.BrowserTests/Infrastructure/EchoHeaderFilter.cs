using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// Answers every request's <c>X-Echo</c> header as its own <c>X-Echo</c>, before anything else runs, so a test can see
/// that a header the explorer page (or the curl line it wrote) added reached the server.
/// </summary>
public sealed class EchoHeaderFilter : IStartupFilter
{
    public const string Header = "X-Echo";

    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use((context, nextMiddleware) =>
        {
            if (context.Request.Headers.TryGetValue(Header, out var value))
            {
                context.Response.Headers[Header] = value;
            }

            return nextMiddleware(context);
        });
        next(app);
    };
}

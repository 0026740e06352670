using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using SearchService.Catalog;

namespace AotSearch;

/// <summary>
/// The host the three AOT search servers share: a slim builder with no configuration files and no logging providers,
/// the catalogue as a singleton, and Kestrel on 127.0.0.1 only (HTTP/1.1 on <c>--port</c>, h2c on <c>--h2c-port</c>).
/// </summary>
internal static class SearchHost
{
    public static WebApplicationBuilder CreateBuilder(string[] args)
    {
        var httpPort = Port(args, "--port", 5301);
        var h2cPort = Port(args, "--h2c-port", 5302);
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [], ContentRootPath = AppContext.BaseDirectory });
        builder.Configuration.Sources.Clear();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            kestrel.Listen(IPAddress.Loopback, httpPort, o => o.Protocols = HttpProtocols.Http1);
            kestrel.Listen(IPAddress.Loopback, h2cPort, o => o.Protocols = HttpProtocols.Http2);
        });
        builder.Services.AddSingleton(ProductCatalog.Load(Path.Combine(AppContext.BaseDirectory, "Data")));
        return builder;
    }

    private static int Port(string[] args, string name, int fallback)
    {
        var index = Array.IndexOf(args, name);
        return index >= 0 && index + 1 < args.Length ? int.Parse(args[index + 1], CultureInfo.InvariantCulture) : fallback;
    }
}

using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace SearchService;

/// <summary>
/// Where the sample listens. ProtoHttp answers on the addresses ASP.NET Core's own settings name (<c>--urls</c>,
/// <c>ASPNETCORE_URLS</c>, <c>ASPNETCORE_HTTP_PORTS</c>/<c>ASPNETCORE_HTTPS_PORTS</c>), or on
/// <c>http://localhost:5080</c> when none is set; the same services answer gRPC over h2c on <c>Grpc:Url</c>
/// (<c>http://localhost:5081</c> in appsettings.json; empty turns it off).
/// </summary>
internal static class SampleEndpoints
{
    private const string DefaultUrl = "http://localhost:5080";

    public static void Configure(WebApplicationBuilder builder)
    {
        // Endpoints in Kestrel's own configuration replace every other address in any ASP.NET Core app; so here too.
        if (builder.Configuration.GetSection("Kestrel:Endpoints").Exists())
        {
            return;
        }

        // Kestrel binds either its configured endpoints or the host's URLs, never both, so the h2c endpoint joins the
        // URLs and gets its protocol by port, instead of being a Kestrel endpoint that would silence --urls.
        var urls = HostingUrls(builder.Configuration);
        if (builder.Configuration["Grpc:Url"] is { Length: > 0 } grpcUrl)
        {
            var grpcPort = BindingAddress.Parse(grpcUrl).Port;
            if (grpcPort == 0 || urls.Any(url => BindingAddress.Parse(url).Port == grpcPort))
            {
                throw new InvalidOperationException(
                    $"Grpc:Url ({grpcUrl}) needs a fixed port of its own, not 0 and none of {string.Join(", ", urls)}: the gRPC endpoint is told apart from the others by its port.");
            }

            urls.Add(grpcUrl);
            builder.WebHost.ConfigureKestrel(kestrel => kestrel.ConfigureEndpointDefaults(listen =>
            {
                // Cleartext HTTP/2 needs an HTTP/2-only endpoint: without TLS there is no ALPN to choose HTTP/2 by.
                if (listen.IPEndPoint?.Port == grpcPort)
                {
                    listen.Protocols = HttpProtocols.Http2;
                }
            }));
        }

        builder.WebHost.UseUrls([.. urls]);
    }

    /// <summary>The URLs the host would bind, read in ASP.NET Core's order: <c>urls</c> first, then the port lists.</summary>
    private static List<string> HostingUrls(ConfigurationManager configuration)
    {
        if (configuration["urls"] is { Length: > 0 } urls)
        {
            return [.. urls.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)];
        }

        List<string> fromPorts = [.. UrlsFromPorts(configuration["http_ports"], "http"), .. UrlsFromPorts(configuration["https_ports"], "https")];
        return fromPorts.Count > 0 ? fromPorts : [DefaultUrl];
    }

    private static IEnumerable<string> UrlsFromPorts(string? ports, string scheme) =>
        (ports ?? "").Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(port => $"{scheme}://*:{port}");
}

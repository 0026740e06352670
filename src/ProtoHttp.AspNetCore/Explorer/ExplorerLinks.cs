using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The addresses the pages link to, as the browser must ask for them: the app's path base (<c>UsePathBase</c>) before
/// each route, and the explorer's own route as mapped, inside whatever route group it was mapped in.
/// </summary>
internal sealed class ExplorerLinks(string pathBase, string index, string? module = null)
{
    /// <summary>The index page.</summary>
    public string Index => pathBase + index;

    /// <summary>ProtoHttp's browser module (docs/protocol.md section 13), inside the route group of the service it was mapped with; null where none is mapped.</summary>
    public string? Module => module is null ? null : pathBase + module;

    public static ExplorerLinks For(HttpContext context, EndpointDataSource endpoints)
    {
        var routes = endpoints.Endpoints.OfType<RouteEndpoint>().ToList();
        var indexEndpoint = routes.First(e => e.Metadata.GetMetadata<ExplorerPages>() is not null);
        var moduleEndpoint = routes.FirstOrDefault(e => e.Metadata.GetMetadata<BrowserModuleMetadata>() is not null);
        return new ExplorerLinks(
            context.Request.PathBase.Value ?? "",
            "/" + indexEndpoint.RoutePattern.RawText!.Trim('/'),
            moduleEndpoint is null ? null : "/" + moduleEndpoint.RoutePattern.RawText!.TrimStart('/'));
    }

    /// <summary>A route of the app (a method's, a .proto file's), as the browser asks for it.</summary>
    public string To(string route) => pathBase + route;

    /// <summary>One of the explorer's script and stylesheet.</summary>
    public string Asset(string name) => $"{pathBase}{index.TrimEnd('/')}/{name}";
}

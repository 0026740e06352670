using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The addresses the pages link to, as the browser must ask for them: the app's path base (<c>UsePathBase</c>) before
/// each route, and the explorer's own route as mapped, inside whatever route group it was mapped in.
/// </summary>
internal sealed class ExplorerLinks(string pathBase, string index)
{
    /// <summary>The index page.</summary>
    public string Index => pathBase + index;

    public static ExplorerLinks For(HttpContext context, EndpointDataSource endpoints)
    {
        var indexEndpoint = endpoints.Endpoints.OfType<RouteEndpoint>().First(e => e.Metadata.GetMetadata<ExplorerPages>() is not null);
        return new ExplorerLinks(context.Request.PathBase.Value ?? "", "/" + indexEndpoint.RoutePattern.RawText!.Trim('/'));
    }

    /// <summary>A route of the app (a method's, a .proto file's), as the browser asks for it.</summary>
    public string To(string route) => pathBase + route;

    /// <summary>One of the explorer's script and stylesheet.</summary>
    public string Asset(string name) => $"{pathBase}{index.TrimEnd('/')}/{name}";
}

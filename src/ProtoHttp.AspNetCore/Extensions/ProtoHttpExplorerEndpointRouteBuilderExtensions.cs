using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore.Explorer;

namespace Microsoft.AspNetCore.Builder;

/// <summary>Maps the ProtoHttp explorer: browser pages generated from the mapped services' descriptors.</summary>
public static class ProtoHttpExplorerEndpointRouteBuilderExtensions
{
    /// <summary>
    /// Maps the explorer's index at <paramref name="pattern"/> (every ProtoHttp service the user may call), its scripts
    /// and stylesheet beneath it, and turns on the file pages: <c>GET /{file}.proto</c> asked for by a browser (text/html
    /// preferred over text/plain) answers a page with a form per method, while other clients still get the .proto
    /// text or its descriptor set. Pages show only methods the user passes the authorization of.
    /// </summary>
    /// <param name="endpoints">The application's endpoints.</param>
    /// <param name="pattern">The index's path, a literal path without route parameters.</param>
    /// <returns>The group of the explorer's own endpoints, for conventions such as <c>RequireAuthorization()</c>.</returns>
    public static RouteGroupBuilder MapProtoHttpExplorer(this IEndpointRouteBuilder endpoints, string pattern = "/protohttp")
    {
        ArgumentNullException.ThrowIfNull(endpoints);
        ArgumentException.ThrowIfNullOrWhiteSpace(pattern);
        var pages = endpoints.ServiceProvider.GetService<ExplorerPages>()
            ?? throw new InvalidOperationException(
                "MapProtoHttpExplorer needs ProtoHttp's services: add builder.Services.AddProtoHttp() before building the application.");
        var basePath = "/" + pattern.Trim().Trim('/');
        if (basePath.Contains('{', StringComparison.Ordinal) || basePath.Contains('*', StringComparison.Ordinal))
        {
            throw new ArgumentException("The explorer's path is a literal path such as /protohttp: its pages link to it.", nameof(pattern));
        }

        pages.MarkMapped();
        var group = endpoints.MapGroup(basePath);
        // The pages find the index (and so their script and stylesheet) by this metadata, inside any route group.
        group.MapMethods("", ["GET", "HEAD"], pages.WriteIndexAsync).WithDisplayName("ProtoHttp explorer").WithMetadata(pages);
        foreach (var (name, asset) in ExplorerAssets.All)
        {
            group.MapMethods("/" + name, ["GET", "HEAD"], asset.HandleAsync).WithDisplayName("ProtoHttp explorer " + name);
        }

        return group;
    }
}

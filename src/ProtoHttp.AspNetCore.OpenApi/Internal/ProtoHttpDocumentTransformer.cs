using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// Adds every ProtoHttp method endpoint not excluded from descriptions (gRPC-Web's are) to an OpenAPI document. They
/// are <c>RequestDelegate</c> endpoints, which ApiExplorer does not describe, so this transformer reads the endpoints'
/// own <see cref="ProtoHttpMethodMetadata"/> instead (the method, its kind, verbs and the media types read and written,
/// so an added codec or protocol is described with no list here), and derives each schema from the descriptors. The routes with a format suffix (<c>.json</c>, <c>.xml</c>, <c>.pb</c>...)
/// are the same calls and are named in the response descriptions rather than listed.
/// </summary>
internal sealed class ProtoHttpDocumentTransformer : IOpenApiDocumentTransformer
{
    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        var described = context.ApplicationServices.GetRequiredService<EndpointDataSource>().Endpoints
            .OfType<RouteEndpoint>()
            .Select(endpoint => (Endpoint: endpoint, Method: endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>()!, Path: "/" + endpoint.RoutePattern.RawText!.TrimStart('/').Replace("{**", "{", StringComparison.Ordinal)))
            .Where(e => e.Method is not null && BelongsTo(e.Endpoint, context.DocumentName))
            .ToList();
        var endpoints = described.Where(e => e.Method.FormatSuffix.Length == 0).ToList();
        if (endpoints.Count == 0)
        {
            return Task.CompletedTask;
        }

        // The suffix routes are the same calls, named in their plain route's description rather than listed.
        var suffixRoutes = described
            .Where(e => e.Method.FormatSuffix.Length > 0)
            .ToLookup(e => (e.Method.Protocol, e.Path[..^e.Method.FormatSuffix.Length]), e => e.Method);
        var comments = new ProtoComments();
        foreach (var source in endpoints.Select(e => e.Method.ProtoSource).Where(source => !source.IsEmpty).Distinct())
        {
            comments.Add(Encoding.UTF8.GetString(source.Span));
        }

        var schemas = new MessageSchemas(document, comments);
        var text = new OperationText(document, comments);
        var query = new QueryParameters(schemas, comments);
        document.Paths ??= [];
        var native = new ProtoHttpOperations(schemas, query);
        var connect = new ConnectOperations(document, schemas);
        var other = new MetadataOperations(schemas);
        var rest = new RestOperations(schemas, query);
        foreach (var (endpoint, method, path) in endpoints)
        {
            // What each endpoint reads and writes, its verbs and kind are its metadata; the protocol says only how
            // its parameters and errors are spelled.
            var operations = method.Protocol switch
            {
                ProtocolNames.ProtoHttp => native.For(method, [.. suffixRoutes[(method.Protocol, path)]], text),
                ProtocolNames.Connect => connect.For(method, text),
                _ when endpoint.Metadata.GetMetadata<RestRouteMetadata>() is { } binding => rest.For(method, binding, text),
                _ => other.For(method, text),
            };

            // REST routes of several methods share a path with different verbs (GET and DELETE of one resource).
            if (document.Paths.TryGetValue(path, out var item) && item is OpenApiPathItem { Operations: { } existing })
            {
                foreach (var (verb, operation) in operations)
                {
                    existing[verb] = operation;
                }
            }
            else
            {
                document.Paths[path] = new OpenApiPathItem { Operations = operations };
            }
        }

        return Task.CompletedTask;
    }

    /// <summary>As ASP.NET Core decides for its own endpoints: excluded ones nowhere, grouped ones only in their group's document.</summary>
    private static bool BelongsTo(Endpoint endpoint, string documentName)
    {
        if (endpoint.Metadata.GetMetadata<IExcludeFromDescriptionMetadata>() is { ExcludeFromDescription: true })
        {
            return false;
        }

        var group = endpoint.Metadata.GetMetadata<IEndpointGroupNameMetadata>()?.EndpointGroupName;
        return group is null || string.Equals(group, documentName, StringComparison.OrdinalIgnoreCase);
    }
}

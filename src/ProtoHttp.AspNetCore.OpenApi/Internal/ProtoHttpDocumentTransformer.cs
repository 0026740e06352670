using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// Adds every ProtoHttp and Connect method endpoint to an OpenAPI document. They are <c>RequestDelegate</c> endpoints,
/// which ApiExplorer does not describe, so this transformer reads the endpoints' own metadata (the protobuf
/// <see cref="Google.Protobuf.Reflection.MethodDescriptor"/> and <see cref="ProtoHttpMethodMetadata"/>) instead, and
/// derives each schema from the descriptors. The routes with a format suffix (<c>.json</c>, <c>.xml</c>, <c>.pb</c>...)
/// are the same calls and are named in the response descriptions rather than listed.
/// </summary>
internal sealed class ProtoHttpDocumentTransformer : IOpenApiDocumentTransformer
{
    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        var endpoints = context.ApplicationServices.GetRequiredService<EndpointDataSource>().Endpoints
            .OfType<RouteEndpoint>()
            .Select(endpoint => (Endpoint: endpoint, Method: endpoint.Metadata.GetMetadata<ProtoHttpMethodMetadata>()!))
            .Where(e => e.Method is { FormatSuffix: "" } && BelongsTo(e.Endpoint, context.DocumentName))
            .ToList();
        if (endpoints.Count == 0)
        {
            return Task.CompletedTask;
        }

        var comments = new ProtoComments();
        foreach (var source in endpoints.Select(e => e.Method.ProtoSource).Where(source => !source.IsEmpty).Distinct())
        {
            comments.Add(Encoding.UTF8.GetString(source.Span));
        }

        var schemas = new MessageSchemas(document, comments);
        var text = new OperationText(document, comments);
        var query = new QueryParameters(schemas, comments);
        document.Paths ??= [];
        foreach (var (endpoint, method) in endpoints)
        {
            // Each service's codecs: what its endpoints read and write.
            var operations = method.Protocol == ProtoHttpProtocol.Connect
                ? new ConnectOperations(document, schemas, method.Codecs).For(method.Method, method.AllowsGet, text)
                : new ProtoHttpOperations(schemas, query, method.Codecs).For(method.Method, method.AllowsGet, text);
            document.Paths["/" + endpoint.RoutePattern.RawText!.TrimStart('/')] = new OpenApiPathItem { Operations = operations };
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

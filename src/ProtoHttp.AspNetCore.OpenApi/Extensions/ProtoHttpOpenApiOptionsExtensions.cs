using Microsoft.AspNetCore.OpenApi;
using ProtoHttp.AspNetCore.OpenApi.Internal;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Describes ProtoHttp services in the OpenAPI documents of ASP.NET Core's <c>AddOpenApi()</c>.</summary>
public static class ProtoHttpOpenApiOptionsExtensions
{
    /// <summary>
    /// Adds every method that <c>MapProtoService&lt;T&gt;()</c> maps to this document: on its ProtoHttp route
    /// (POST with a body in JSON, protobuf, XML or a form; GET with its query parameters where allowed; the response in
    /// each format; ErrorResult failures) and on its Connect path, with message schemas in protobuf's canonical JSON
    /// mapping derived from the descriptors and summaries from the embedded <c>.proto</c>'s comments. Endpoints given a
    /// group name (<c>WithGroupName</c>) appear only in that group's document.
    /// </summary>
    /// <param name="options">The options of one OpenAPI document, as <c>AddOpenApi(options => ...)</c> passes them.</param>
    /// <returns><paramref name="options"/>, for chaining.</returns>
    public static OpenApiOptions AddProtoHttp(this OpenApiOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.AddDocumentTransformer<ProtoHttpDocumentTransformer>();
    }
}

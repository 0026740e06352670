using Google.Protobuf.Reflection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// What names and explains an operation: a unique operation id, the summary and description from the method's
/// comments, and a tag per service (its comment as the tag's description).
/// </summary>
internal sealed class OperationText(OpenApiDocument document, ProtoComments comments)
{
    private readonly HashSet<string> _operationIds = new(StringComparer.Ordinal);

    /// <summary>A new operation for <paramref name="method"/>; <paramref name="idSuffix"/> tells its verb and protocol apart.</summary>
    public OpenApiOperation Operation(MethodDescriptor method, string idSuffix)
    {
        var comment = comments.For(method.FullName);
        return new OpenApiOperation
        {
            OperationId = UniqueId($"{method.Service.Name}_{method.Name}{idSuffix}"),
            Summary = comment is null ? method.Name : comment.Split('\n')[0],
            Description = comment,
            Tags = new HashSet<OpenApiTagReference> { Tag(method.Service) },
        };
    }

    private OpenApiTagReference Tag(ServiceDescriptor service)
    {
        document.Tags ??= new HashSet<OpenApiTag>();
        if (!document.Tags.Any(tag => tag.Name == service.FullName))
        {
            document.Tags.Add(new OpenApiTag { Name = service.FullName, Description = comments.For(service.FullName) });
        }

        return new OpenApiTagReference(service.FullName, document);
    }

    // A service mapped under two prefixes has each method twice; operation ids must still be unique in the document.
    private string UniqueId(string id)
    {
        var unique = id;
        for (var n = 2; !_operationIds.Add(unique); n++)
        {
            unique = $"{id}_{n}";
        }

        return unique;
    }
}

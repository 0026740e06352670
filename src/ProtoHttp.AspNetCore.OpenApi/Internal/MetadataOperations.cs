using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The operations of an endpoint of a protocol this package has no words of its own for: only what its
/// <see cref="ProtoHttpMethodMetadata"/> says (verbs, kind, the media types read and written), so that a protocol
/// added to ProtoHttp is described with no edit here. ProtoHttp's routes and Connect's paths say more
/// (<see cref="ProtoHttpOperations"/>, <see cref="ConnectOperations"/>).
/// </summary>
internal sealed class MetadataOperations(MessageSchemas schemas)
{
    public Dictionary<HttpMethod, OpenApiOperation> For(ProtoHttpMethodMetadata endpoint, OperationText text)
    {
        var method = endpoint.Method;
        var streaming = endpoint.Kind != MethodType.Unary;
        var operations = new Dictionary<HttpMethod, OpenApiOperation>();
        foreach (var verb in endpoint.Verbs)
        {
            var operation = text.Operation(method, $"_{endpoint.Protocol}{(HttpMethods.IsPost(verb) ? "" : "_" + verb)}");
            if (HttpMethods.IsPost(verb))
            {
                operation.RequestBody = new OpenApiRequestBody
                {
                    Description = $"{(endpoint.Kind is MethodType.ClientStreaming or MethodType.DuplexStreaming ? "A stream of " : "")}{method.InputType.FullName}, in the type Content-Type names.",
                    Content = endpoint.RequestMediaTypes.Distinct(StringComparer.OrdinalIgnoreCase).ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(method.InputType) }),
                    Required = true,
                };
            }

            operation.Responses = new OpenApiResponses
            {
                ["200"] = new OpenApiResponse
                {
                    Description = $"{(endpoint.Method.IsServerStreaming ? "A stream of " : "")}{method.OutputType.FullName}, in the request's type.",
                    // A stream's records have no OpenAPI schema; its media type says what comes.
                    Content = endpoint.ResponseMediaTypes.Distinct(StringComparer.OrdinalIgnoreCase).ToDictionary(type => type, type => streaming
                        ? new OpenApiMediaType { Schema = new OpenApiSchema { Type = JsonSchemaType.String, ContentMediaType = type } }
                        : new OpenApiMediaType { Schema = schemas.Message(method.OutputType) }),
                },
                ["default"] = new OpenApiResponse { Description = $"A failure, as the {endpoint.Protocol} protocol tells one." },
            };
            operations[new HttpMethod(verb)] = operation;
        }

        return operations;
    }
}

using Google.Protobuf.Reflection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The operations of one method on ProtoHttp's route <c>/B/{Method}</c> (docs/protocol.md sections 1-10): POST with a body
/// in each request format, GET with the query parameters where the method allows it, the response in each format,
/// and the ErrorResult answers with their statuses.
/// </summary>
internal sealed class ProtoHttpOperations(MessageSchemas schemas, QueryParameters query)
{
    // docs/protocol.md section 2: the canonical media type of each format, the ones a description should offer.
    private static readonly string[] RequestTypes = ["application/json", "application/x-protobuf", "application/xml", "application/x-www-form-urlencoded"];
    private static readonly string[] ResponseTypes = ["application/json", "application/x-protobuf", "application/xml"];

    public Dictionary<HttpMethod, OpenApiOperation> For(MethodDescriptor method, bool allowsGet, OperationText text)
    {
        var operations = new Dictionary<HttpMethod, OpenApiOperation>
        {
            [HttpMethod.Post] = Operation(method, text, "", post: true),
        };
        if (allowsGet)
        {
            var get = Operation(method, text, "_Get", post: false);
            get.Parameters = [.. query.For(method.InputType), .. get.Parameters ?? []];
            operations[HttpMethod.Get] = get;
        }

        return operations;
    }

    private OpenApiOperation Operation(MethodDescriptor method, OperationText text, string idSuffix, bool post)
    {
        var operation = text.Operation(method, idSuffix);
        operation.Parameters = [Headers.Timeout()];
        if (post)
        {
            operation.RequestBody = method.IsClientStreaming ? StreamRequest(method) : new OpenApiRequestBody
            {
                Description = $"{method.InputType.FullName}, in the format Content-Type names; an empty body is the empty message.",
                Content = RequestTypes.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(method.InputType) }),
            };
        }

        operation.Responses = new OpenApiResponses
        {
            ["200"] = method.IsServerStreaming ? StreamResponse(method) : new OpenApiResponse
            {
                Description = $"{method.OutputType.FullName}, in the format Accept names (or the request's own); the suffixes .json, .xml and .pb on the path force one.",
                Content = ResponseTypes.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(method.OutputType) }),
            },
        };
        foreach (var (status, description) in Errors(post))
        {
            operation.Responses[status] = Error(description);
        }

        return operation;
    }

    /// <summary>The failures ProtoHttp itself answers on this route, and the service's own statuses as the default.</summary>
    private static IEnumerable<(string Status, string Description)> Errors(bool post)
    {
        yield return ("400", "INVALID_ARGUMENT: the request could not be read or bound (the text names the key, field or header), or a required field is missing.");
        yield return ("406", "INVALID_ARGUMENT: no format named in Accept can be written.");
        if (post)
        {
            yield return ("413", "RESOURCE_EXHAUSTED: the body is over the size limit.");
            yield return ("415", "INVALID_ARGUMENT: the Content-Type is not one ProtoHttp reads (Accept-Post lists those it does).");
        }

        yield return ("500", "UNKNOWN or INTERNAL: the service failed.");
        yield return ("504", "DEADLINE_EXCEEDED: Connect-Timeout-Ms passed before the service answered.");
        yield return ("default", "Another status the service raised with RpcException, mapped to HTTP as docs/protocol.md section 5 says (NOT_FOUND 404, PERMISSION_DENIED 403, ...).");
    }

    private OpenApiResponse Error(string description) => new()
    {
        Description = description,
        Content = ResponseTypes.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(ErrorResult.Descriptor) }),
    };

    // Streams are sequences of records OpenAPI 3.1 has no schema for; the media types and the framing say what comes.
    private static OpenApiRequestBody StreamRequest(MethodDescriptor method) => new()
    {
        Description = $"A stream of {method.InputType.FullName} in Connect envelopes (docs/protocol.md section 9).",
        Content = new Dictionary<string, OpenApiMediaType>
        {
            ["application/connect+proto"] = new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String, ContentMediaType = "application/connect+proto" } },
            ["application/connect+json"] = new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String, ContentMediaType = "application/connect+json" } },
        },
        Required = true,
    };

    private OpenApiResponse StreamResponse(MethodDescriptor method) => new()
    {
        Description = $"A stream of {method.OutputType.FullName} (docs/protocol.md section 9): Server-Sent Events whose data is each message's JSON, " +
            "then an end event; NDJSON lines {\"result\": message}, a failure ending with {\"error\": ErrorResult}; or Connect envelopes.",
        Content = new Dictionary<string, OpenApiMediaType>
        {
            ["text/event-stream"] = new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String } },
            ["application/x-ndjson"] = new()
            {
                Schema = new OpenApiSchema
                {
                    Type = JsonSchemaType.Object,
                    Description = "One line.",
                    Properties = new Dictionary<string, IOpenApiSchema>
                    {
                        ["result"] = schemas.Message(method.OutputType),
                        ["error"] = schemas.Message(ErrorResult.Descriptor),
                    },
                },
            },
            ["application/connect+proto"] = new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String, ContentMediaType = "application/connect+proto" } },
            ["application/connect+json"] = new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String, ContentMediaType = "application/connect+json" } },
        },
    };
}

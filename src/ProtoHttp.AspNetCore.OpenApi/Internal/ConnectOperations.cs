using System.Text.Json.Nodes;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The operations of one method at its Connect procedure path <c>/{package}.{Service}/{Method}</c> (docs/connect.md),
/// from what the endpoint's metadata says: for a unary method, POST in each codec type it reads and GET with
/// <c>connect</c>/<c>encoding</c>/<c>message</c> where it answers GET; for a streaming one, POST of the envelopes it
/// reads answered in the envelopes it writes; and Connect's error JSON.
/// </summary>
internal sealed class ConnectOperations(OpenApiDocument document, MessageSchemas schemas)
{
    private const string ErrorSchemaId = "connect.error";

    /// <summary>The operations of the procedure path <paramref name="endpoint"/> describes, with the verbs, media types and kind its metadata gives.</summary>
    public Dictionary<HttpMethod, OpenApiOperation> For(ProtoHttpMethodMetadata endpoint, OperationText text)
    {
        var method = endpoint.Method;
        var reads = DescribedTypes.JsonFirst(endpoint.RequestMediaTypes, endpoint.Codecs);
        var writes = DescribedTypes.JsonFirst(endpoint.ResponseMediaTypes, endpoint.Codecs);
        if (endpoint.Kind != MethodType.Unary)
        {
            return new Dictionary<HttpMethod, OpenApiOperation> { [HttpMethod.Post] = StreamOperation(endpoint, reads, writes, text) };
        }

        var operations = new Dictionary<HttpMethod, OpenApiOperation>();
        if (endpoint.Verbs.Contains(HttpMethods.Post))
        {
            var post = Operation(method, writes, text, "_Connect");
            post.RequestBody = new OpenApiRequestBody
            {
                Description = $"{method.InputType.FullName} in the codec Content-Type names.",
                Content = reads.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(method.InputType) }),
                Required = true,
            };
            operations[HttpMethod.Post] = post;
        }

        if (endpoint.Verbs.Contains(HttpMethods.Get))
        {
            // A Connect codec named name travels as application/{name}, and a GET names it as encoding=name.
            var get = Operation(method, writes, text, "_ConnectGet");
            get.Parameters = [.. GetParameters(method, [.. reads.Select(type => type[(type.IndexOf('/') + 1)..])]), .. get.Parameters ?? []];
            operations[HttpMethod.Get] = get;
        }

        return operations;
    }

    private OpenApiOperation Operation(MethodDescriptor method, string[] writes, OperationText text, string idSuffix)
    {
        var operation = text.Operation(method, idSuffix);
        operation.Parameters = Parameters();
        operation.Responses = new OpenApiResponses
        {
            ["200"] = new OpenApiResponse
            {
                Description = $"{method.OutputType.FullName} in the request's codec.",
                Content = writes.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(method.OutputType) }),
            },
            ["default"] = Failure("A failure, as Connect's error JSON with Connect's code-to-HTTP table."),
        };
        return operation;
    }

    /// <summary>
    /// A streaming method's one operation: envelopes in, envelopes of the same codec out. Once the request is accepted
    /// the status is 200 whatever happens, and the outcome is the end-stream message, as Connect's streaming protocol says.
    /// </summary>
    private OpenApiOperation StreamOperation(ProtoHttpMethodMetadata endpoint, string[] reads, string[] writes, OperationText text)
    {
        var method = endpoint.Method;
        var operation = text.Operation(method, "_Connect");
        operation.Parameters = Parameters();
        operation.RequestBody = endpoint.Kind is MethodType.ClientStreaming or MethodType.DuplexStreaming ? StreamBodies.Request(method, reads) : new OpenApiRequestBody
        {
            Description = $"Exactly one Connect envelope holding {method.InputType.FullName}.",
            Content = reads.ToDictionary(type => type, StreamBodies.Envelopes),
            Required = true,
        };
        operation.Responses = new OpenApiResponses
        {
            ["200"] = new OpenApiResponse
            {
                Description = $"{(method.IsServerStreaming ? "A stream of" : "The one")} {method.OutputType.FullName} in Connect envelopes of the request's codec, "
                    + "then the end-stream message: {} or {\"metadata\": …} on success, {\"error\": {\"code\", \"message\"}, \"metadata\": …} on failure.",
                Content = writes.ToDictionary(type => type, StreamBodies.Envelopes),
            },
            ["default"] = Failure("A refusal before the stream starts (verb, media type, HTTP version), as Connect's error JSON."),
        };
        if (endpoint.Kind == MethodType.DuplexStreaming)
        {
            operation.Responses["505"] = Failure(StreamBodies.Http2Only);
        }

        return operation;
    }

    private static List<IOpenApiParameter> Parameters() =>
    [
        new OpenApiParameter
        {
            Name = "Connect-Protocol-Version",
            In = ParameterLocation.Header,
            Description = "The Connect protocol version; Connect clients send 1.",
            Schema = new OpenApiSchema { Type = JsonSchemaType.String, Enum = [JsonValue.Create("1")] },
        },
        Headers.Timeout(),
    ];

    private OpenApiResponse Failure(string description) => new()
    {
        Description = description,
        Content = new Dictionary<string, OpenApiMediaType> { ["application/json"] = new() { Schema = ErrorSchema() } },
    };

    private static IEnumerable<IOpenApiParameter> GetParameters(MethodDescriptor method, string[] names)
    {
        yield return Query("connect", "The protocol version.", required: false, new OpenApiSchema { Type = JsonSchemaType.String, Enum = [JsonValue.Create("v1")] });
        yield return Query("encoding", "The codec of message.", required: true, new OpenApiSchema { Type = JsonSchemaType.String, Enum = [.. names.Select(name => (JsonNode)JsonValue.Create(name))] });
        yield return Query("message", $"{method.InputType.FullName} in that codec (URL-encoded, or base64url with base64=1).", required: true,
            new OpenApiSchema { Type = JsonSchemaType.String, Examples = [JsonValue.Create("{}")] });
        yield return Query("base64", "1 when message is base64url.", required: false, new OpenApiSchema { Type = JsonSchemaType.String, Enum = [JsonValue.Create("1")] });
        yield return Query("compression", "The compression of message: gzip or identity.", required: false, new OpenApiSchema { Type = JsonSchemaType.String, Enum = [JsonValue.Create("gzip"), JsonValue.Create("identity")] });
    }

    private static OpenApiParameter Query(string name, string description, bool required, OpenApiSchema schema) =>
        new() { Name = name, In = ParameterLocation.Query, Description = description, Required = required, Schema = schema };

    private OpenApiSchemaReference ErrorSchema()
    {
        document.Components ??= new OpenApiComponents();
        var components = document.Components.Schemas ??= new Dictionary<string, IOpenApiSchema>(StringComparer.Ordinal);
        if (!components.ContainsKey(ErrorSchemaId))
        {
            components[ErrorSchemaId] = new OpenApiSchema
            {
                Type = JsonSchemaType.Object,
                Description = "The Connect protocol's error.",
                Properties = new Dictionary<string, IOpenApiSchema>
                {
                    ["code"] = new OpenApiSchema { Type = JsonSchemaType.String, Description = "The status in lower snake case, e.g. not_found." },
                    ["message"] = new OpenApiSchema { Type = JsonSchemaType.String },
                    ["details"] = new OpenApiSchema
                    {
                        Type = JsonSchemaType.Array,
                        Description = "The google.rpc.Status details of an RpcException.",
                        Items = new OpenApiSchema
                        {
                            Type = JsonSchemaType.Object,
                            Properties = new Dictionary<string, IOpenApiSchema>
                            {
                                ["type"] = new OpenApiSchema { Type = JsonSchemaType.String, Description = "The detail message's full name." },
                                ["value"] = new OpenApiSchema { Type = JsonSchemaType.String, ContentEncoding = "base64", Description = "Its protobuf bytes, base64 without padding." },
                            },
                        },
                    },
                },
                Required = new HashSet<string> { "code" },
            };
        }

        return new OpenApiSchemaReference(ErrorSchemaId, document);
    }
}

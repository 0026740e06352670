using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.OpenApi;
using ProtoHttp.AspNetCore.Protocols.Rest;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The operation of a REST route from a <c>google.api.http</c> rule (docs/rest.md): the rule's verb, a path parameter per
/// variable's segment, query parameters for every field neither the path nor the body binds, the body (all of the
/// request, one field, or raw bytes for a <c>google.api.HttpBody</c>), and the answer (or its <c>response_body</c> field)
/// in each type the endpoint writes, with ErrorResult answers.
/// </summary>
internal sealed class RestOperations(MessageSchemas schemas, QueryParameters query)
{
    private const string HttpBody = "google.api.HttpBody";

    public Dictionary<HttpMethod, OpenApiOperation> For(ProtoHttpMethodMetadata endpoint, RestRouteMetadata rest, OperationText text)
    {
        var method = endpoint.Method;
        var operation = text.Operation(method, "_Rest");
        var input = method.InputType;
        List<IOpenApiParameter> parameters = [.. rest.PathParameters.Select(pair => (IOpenApiParameter)new OpenApiParameter
        {
            Name = pair.Key,
            In = ParameterLocation.Path,
            Required = true,
            Description = $"Binds {pair.Value} (the path template {rest.Template}).",
            Schema = new OpenApiSchema { Type = JsonSchemaType.String },
        })];
        if (rest.Body != "*")
        {
            parameters.AddRange(query.For(input).Where(parameter => parameter.Name is { } name && !BoundElsewhere(name, rest)));
        }

        operation.Parameters = parameters;
        if (rest.Body.Length > 0)
        {
            var field = rest.Body == "*" ? null : input.FindFieldByName(rest.Body);
            var type = field is null ? input : field.FieldType == FieldType.Message ? field.MessageType : null;
            operation.RequestBody = new OpenApiRequestBody
            {
                Description = field is null ? $"{input.FullName}, in the format Content-Type names." : $"The field {field.Name} of {input.FullName}.",
                Content = endpoint.RequestMediaTypes.ToDictionary(media => media, _ => new OpenApiMediaType
                {
                    Schema = type?.FullName == HttpBody ? Binary() : type is not null ? schemas.Message(type) : Field(field!),
                }),
            };
        }

        var answerField = rest.ResponseBody.Length == 0 ? null : method.OutputType.FindFieldByName(rest.ResponseBody);
        var answer = answerField is null ? method.OutputType : answerField.FieldType == FieldType.Message && !answerField.IsRepeated ? answerField.MessageType : null;
        operation.Responses = new OpenApiResponses
        {
            ["200"] = new OpenApiResponse
            {
                Description = endpoint.Kind == MethodType.ServerStreaming
                    ? $"A stream of {method.OutputType.FullName}, in the framing Accept names: NDJSON lines {{\"result\": message}} by default, Server-Sent Events, or Connect envelopes."
                    : $"{(answerField is null ? method.OutputType.FullName : $"The field {answerField.Name} of {method.OutputType.FullName}")}, in the format Accept names (JSON by default).",
                Content = endpoint.ResponseMediaTypes.ToDictionary(media => media, _ => new OpenApiMediaType
                {
                    Schema = endpoint.Kind == MethodType.ServerStreaming ? new OpenApiSchema { Type = JsonSchemaType.String }
                        : answer?.FullName == HttpBody ? Binary() : answer is not null ? schemas.Message(answer) : Field(answerField!),
                }),
            },
            ["400"] = Error("INVALID_ARGUMENT: the request could not be read or bound (the text names the key or field).", endpoint),
            ["404"] = Error("NOT_FOUND: the service found nothing there, or the path's literals differ in case.", endpoint),
            ["default"] = Error("Another status the service raised, mapped as on ProtoHttp's own routes.", endpoint),
        };
        return new Dictionary<HttpMethod, OpenApiOperation> { [new HttpMethod(rest.Verb)] = operation };
    }

    private static bool BoundElsewhere(string name, RestRouteMetadata rest) =>
        rest.BoundFields.Any(bound => name == bound || name.StartsWith(bound + ".", StringComparison.Ordinal))
        || rest.Body.Length > 0 && (name == rest.Body || name.StartsWith(rest.Body + ".", StringComparison.Ordinal));

    private IOpenApiSchema Field(FieldDescriptor field) =>
        field.IsMap ? new OpenApiSchema { Type = JsonSchemaType.Object, AdditionalProperties = schemas.Value(field.MessageType.FindFieldByNumber(2)) }
        : field.IsRepeated ? new OpenApiSchema { Type = JsonSchemaType.Array, Items = schemas.Value(field) }
        : schemas.Value(field);

    private static OpenApiSchema Binary() => new() { Type = JsonSchemaType.String, Format = "binary" };

    private OpenApiResponse Error(string description, ProtoHttpMethodMetadata endpoint) => new()
    {
        Description = description,
        Content = DescribedTypes.Of(endpoint.Codecs.Writable.Select(type => type.MediaType), endpoint.Codecs)
            .ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(ErrorResult.Descriptor) }),
    };
}

using Google.Protobuf.Reflection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The operations of one method on ProtoHttp's route <c>/B/{Method}</c> (docs/protocol.md sections 1-10): POST with a body
/// in each request format, GET with the query parameters where the method allows it, the response in each format,
/// and the ErrorResult answers with their statuses.
/// </summary>
internal sealed class ProtoHttpOperations(MessageSchemas schemas, QueryParameters query, MessageCodecs codecs)
{
    // docs/protocol.md section 2: the canonical media type of each of the service's codecs, the ones a description should offer.
    private readonly string[] RequestTypes = [.. StreamBodies.JsonFirst(codecs).Select(codec => codec.MediaTypes[0])];
    private readonly string[] ResponseTypes = [.. StreamBodies.JsonFirst(codecs).Where(codec => codec.CanWrite).Select(codec => codec.MediaTypes[0])];

    // docs/protocol.md section 10: a stream fails before its first record as a unary call does, in JSON (also when
    // negotiation failed), or in the codec of an envelope stream (protobuf for connect+proto); XML has no stream.
    private readonly string[] StreamErrorTypes = [.. StreamBodies.JsonFirst(codecs).Where(codec => codec.IsConnectCodec).Select(codec => codec.MediaTypes[0])];

    private readonly string[] EnvelopeTypes = StreamBodies.EnvelopeTypes(codecs);

    private readonly string Suffixes = string.Join(", ", StreamBodies.JsonFirst(codecs).Where(codec => codec is { CanWrite: true, Suffix: not null }).Select(codec => codec.Suffix));

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
            operation.RequestBody = method.IsClientStreaming ? StreamBodies.Request(method, EnvelopeTypes) : new OpenApiRequestBody
            {
                Description = method.IsServerStreaming
                    ? $"{method.InputType.FullName}, in the format Content-Type names, or as exactly one Connect envelope; an empty body is the empty message."
                    : $"{method.InputType.FullName}, in the format Content-Type names; an empty body is the empty message.",
                Content = RequestTypes.Concat(method.IsServerStreaming ? EnvelopeTypes : [])
                    .ToDictionary(type => type, type => EnvelopeTypes.Contains(type)
                        ? StreamBodies.Envelopes(type)
                        : new OpenApiMediaType { Schema = schemas.Message(method.InputType) }),
            };
        }

        // Any streaming method answers in a stream framing, a client stream's one message too (docs/protocol.md section 10).
        var streaming = method.IsClientStreaming || method.IsServerStreaming;
        operation.Responses = new OpenApiResponses
        {
            ["200"] = streaming ? StreamResponse(method) : new OpenApiResponse
            {
                Description = $"{method.OutputType.FullName}, in the format Accept names (or the request's own); the suffixes {Suffixes} on the path force one.",
                Content = ResponseTypes.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(method.OutputType) }),
            },
        };
        foreach (var (status, description) in Errors(method, post))
        {
            operation.Responses[status] = Error(description, streaming ? StreamErrorTypes : ResponseTypes);
        }

        return operation;
    }

    /// <summary>The failures ProtoHttp itself answers on this route, and the service's own statuses as the default.</summary>
    private static IEnumerable<(string Status, string Description)> Errors(MethodDescriptor method, bool post)
    {
        yield return ("400", "INVALID_ARGUMENT: the request could not be read or bound (the text names the key, field or header), or a required field is missing.");
        yield return ("406", "INVALID_ARGUMENT: no format named in Accept can be written.");
        if (post)
        {
            yield return ("408", "DEADLINE_EXCEEDED: the body stopped arriving (the server's minimum request data rate).");
            yield return ("413", "RESOURCE_EXHAUSTED: the body is over the size limit.");
            yield return ("415", "INVALID_ARGUMENT: the Content-Type is not one ProtoHttp reads (Accept-Post lists those it does).");
        }

        yield return ("500", "UNKNOWN or INTERNAL: the service failed.");
        yield return ("504", "DEADLINE_EXCEEDED: Connect-Timeout-Ms passed before the service answered.");
        if (method.IsClientStreaming && method.IsServerStreaming)
        {
            yield return ("505", StreamBodies.Http2Only);
        }

        // The document is served inside the app, where a path into this repository's docs means nothing: the table itself.
        yield return ("default", "Another status the service raised with RpcException: INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE 400; "
            + "UNAUTHENTICATED 401; PERMISSION_DENIED 403; NOT_FOUND 404; ALREADY_EXISTS, ABORTED 409; RESOURCE_EXHAUSTED 429; CANCELLED 499; "
            + "UNIMPLEMENTED 501; UNAVAILABLE 503; DEADLINE_EXCEEDED 504; the others 500.");
    }

    private OpenApiResponse Error(string description, string[] types) => new()
    {
        Description = description,
        Content = types.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(ErrorResult.Descriptor) }),
    };

    // Streams are sequences of records OpenAPI 3.1 has no schema for; the media types and the framing say what comes.
    private OpenApiResponse StreamResponse(MethodDescriptor method) => new()
    {
        Description = (method.IsServerStreaming ? $"A stream of {method.OutputType.FullName}" : $"The one {method.OutputType.FullName}, framed as a stream")
            + ", in the framing Accept names (a unary type stands for its codec's stream; XML has none), "
            + "or the request's own: Server-Sent Events whose data is each message's JSON, then an end event; NDJSON lines "
            + "{\"result\": message}, a failure ending with {\"error\": ErrorResult}; or Connect envelopes ending with the end-stream message. "
            + $"The suffixes .sse, .ndjson and {string.Join(", ", codecs.All.Where(codec => codec is { CanWrite: true, Suffix: not null } && (codec == codecs.Codec(MessageFormat.Json) || codec.IsConnectCodec)).Select(codec => codec.Suffix))} on the path force one.",
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
        }
        .Concat(EnvelopeTypes.Select(type => KeyValuePair.Create(type, StreamBodies.Envelopes(type))))
        .ToDictionary(),
    };
}

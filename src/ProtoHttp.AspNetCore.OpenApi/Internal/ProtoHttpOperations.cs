using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.OpenApi;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// The operations of one method on ProtoHttp's route <c>/B/{Method}</c> (docs/protocol.md sections 1-10), from what the
/// endpoint's metadata says: POST with a body in each type it reads, GET with the query parameters where it answers GET,
/// the response in each type it writes, and the ErrorResult answers with their statuses.
/// </summary>
internal sealed class ProtoHttpOperations(MessageSchemas schemas, QueryParameters query)
{
    /// <summary>
    /// The operations of the plain route <paramref name="endpoint"/> describes, with the verbs, media types and kind
    /// its metadata gives; <paramref name="suffixRoutes"/> are its suffix routes, named in the answer's description.
    /// </summary>
    public Dictionary<HttpMethod, OpenApiOperation> For(ProtoHttpMethodMetadata endpoint, IReadOnlyList<ProtoHttpMethodMetadata> suffixRoutes, OperationText text)
    {
        var operations = new Dictionary<HttpMethod, OpenApiOperation>();
        if (endpoint.Verbs.Contains(HttpMethods.Post))
        {
            operations[HttpMethod.Post] = Operation(endpoint, suffixRoutes, text, "", post: true);
        }

        if (endpoint.Verbs.Contains(HttpMethods.Get))
        {
            var get = Operation(endpoint, suffixRoutes, text, "_Get", post: false);
            get.Parameters = [.. query.For(endpoint.Method.InputType), .. get.Parameters ?? []];
            operations[HttpMethod.Get] = get;
        }

        return operations;
    }

    private OpenApiOperation Operation(ProtoHttpMethodMetadata endpoint, IReadOnlyList<ProtoHttpMethodMetadata> suffixRoutes, OperationText text, string idSuffix, bool post)
    {
        var method = endpoint.Method;
        var codecs = endpoint.Codecs;
        var reads = DescribedTypes.Of(endpoint.RequestMediaTypes, codecs);
        var writes = DescribedTypes.Of(endpoint.ResponseMediaTypes, codecs);
        var operation = text.Operation(method, idSuffix);
        operation.Parameters = [Headers.Timeout()];
        if (post)
        {
            var envelopes = reads.Any(type => DescribedTypes.EnvelopeCodec(type, codecs) is not null);
            operation.RequestBody = endpoint.Kind is MethodType.ClientStreaming or MethodType.DuplexStreaming ? StreamBodies.Request(method, reads) : new OpenApiRequestBody
            {
                Description = envelopes
                    ? $"{method.InputType.FullName}, in the format Content-Type names, or as exactly one Connect envelope; an empty body is the empty message."
                    : $"{method.InputType.FullName}, in the format Content-Type names; an empty body is the empty message.",
                Content = reads.ToDictionary(type => type, type => DescribedTypes.EnvelopeCodec(type, codecs) is not null
                    ? StreamBodies.Envelopes(type)
                    : new OpenApiMediaType { Schema = schemas.Message(method.InputType) }),
            };
        }

        // Any streaming method answers in a stream framing, a client stream's one message too (docs/protocol.md section 10).
        var streaming = endpoint.Kind != MethodType.Unary;
        operation.Responses = new OpenApiResponses
        {
            ["200"] = streaming ? StreamResponse(endpoint, writes, suffixRoutes) : new OpenApiResponse
            {
                Description = $"{method.OutputType.FullName}, in the format Accept names (or the request's own); the suffixes {Suffixes(suffixRoutes)} on the path force one.",
                Content = writes.ToDictionary(type => type, _ => new OpenApiMediaType { Schema = schemas.Message(method.OutputType) }),
            },
        };

        // docs/protocol.md section 10: a stream fails before its first record as a unary call does, in JSON (also when
        // negotiation failed), or in the codec of an envelope stream (protobuf for connect+proto).
        var errorTypes = streaming ? DescribedTypes.StreamErrors(writes, codecs) : writes;
        foreach (var (status, description) in Errors(method, post))
        {
            operation.Responses[status] = Error(description, errorTypes);
        }

        return operation;
    }

    // The suffix routes that answer (a stream's .xml answers nothing but 406), as mapped.
    private static string Suffixes(IReadOnlyList<ProtoHttpMethodMetadata> suffixRoutes) =>
        string.Join(", ", suffixRoutes.Where(route => route.ResponseMediaTypes.Count > 0).Select(route => route.FormatSuffix));

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
    private OpenApiResponse StreamResponse(ProtoHttpMethodMetadata endpoint, string[] writes, IReadOnlyList<ProtoHttpMethodMetadata> suffixRoutes) => new()
    {
        Description = (endpoint.Method.IsServerStreaming ? $"A stream of {endpoint.Method.OutputType.FullName}" : $"The one {endpoint.Method.OutputType.FullName}, framed as a stream")
            + ", in the framing Accept names (a unary type stands for its codec's stream; XML has none), "
            + "or the request's own: Server-Sent Events whose data is each message's JSON, then an end event; NDJSON lines "
            + "{\"result\": message}, a failure ending with {\"error\": ErrorResult}; or Connect envelopes ending with the end-stream message. "
            + $"The suffixes {Suffixes(suffixRoutes)} on the path force one.",
        Content = writes.ToDictionary(type => type, type => StreamRecords(endpoint, type)),
    };

    private OpenApiMediaType StreamRecords(ProtoHttpMethodMetadata endpoint, string type) => type switch
    {
        StreamMediaTypes.Ndjson => new()
        {
            Schema = new OpenApiSchema
            {
                Type = JsonSchemaType.Object,
                Description = "One line.",
                Properties = new Dictionary<string, IOpenApiSchema>
                {
                    ["result"] = schemas.Message(endpoint.Method.OutputType),
                    ["error"] = schemas.Message(ErrorResult.Descriptor),
                },
            },
        },
        _ when DescribedTypes.EnvelopeCodec(type, endpoint.Codecs) is not null => StreamBodies.Envelopes(type),
        _ => new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String } },
    };
}

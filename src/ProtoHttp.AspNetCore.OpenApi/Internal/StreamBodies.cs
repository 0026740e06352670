using Google.Protobuf.Reflection;
using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>
/// What ProtoHttp's routes and Connect's paths share in describing streams (docs/protocol.md section 10): a body of
/// Connect envelopes, a client stream's request body, and the HTTP/2 a bidirectional call needs.
/// </summary>
internal static class StreamBodies
{
    public const string Http2Only = "UNIMPLEMENTED: a bidirectional call needs HTTP/2 (h2c or TLS); over HTTP/1.1 it answers 505.";

    /// <summary>A body of envelopes; OpenAPI 3.1 has no schema for a sequence of records, so the media type says what comes.</summary>
    public static OpenApiMediaType Envelopes(string type) =>
        new() { Schema = new OpenApiSchema { Type = JsonSchemaType.String, ContentMediaType = type } };

    /// <summary>The request body of a client-streaming or bidirectional call: its messages in Connect envelopes.</summary>
    public static OpenApiRequestBody Request(MethodDescriptor method, string[] envelopeTypes) => new()
    {
        Description = $"A stream of {method.InputType.FullName} in Connect envelopes (a flag byte, a 4-byte big-endian length, the message)"
            + (method.IsServerStreaming ? ", over HTTP/2." : "."),
        Content = envelopeTypes.ToDictionary(type => type, Envelopes),
        Required = true,
    };
}

using System.Text.Json;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// Writes the Connect protocol's unary error: <c>{"code": "not_found", "message": "…", "details": [{"type": "…",
/// "value": "…"}]}</c> as <c>application/json</c>, whatever the call's codec.
/// </summary>
internal static class ConnectErrorWriter
{
    private static readonly JsonWriterOptions Options = new() { Encoder = System.Text.Encodings.Web.JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    public static async Task WriteAsync(HttpResponse response, int httpStatus, StatusCode code, string message, IReadOnlyList<Any> details)
    {
        response.StatusCode = httpStatus;
        response.ContentType = ConnectMediaTypes.Json;
        using var buffer = Internal.PooledBufferWriter.Rent(256);
        using (var json = new Utf8JsonWriter(buffer.Writer, Options))
        {
            Write(json, code, message, details);
        }

        response.ContentLength = buffer.WrittenMemory.Length;
        await response.BodyWriter.WriteAsync(buffer.WrittenMemory);
    }

    /// <summary>The error object itself; streaming end messages nest it under <c>"error"</c>.</summary>
    public static void Write(Utf8JsonWriter json, StatusCode code, string message, IReadOnlyList<Any> details)
    {
        json.WriteStartObject();
        json.WriteString("code", ConnectCodes.Name(code));
        if (message.Length > 0)
        {
            json.WriteString("message", message);
        }

        RpcStatusDetails.WriteConnectDetails(json, details);
        json.WriteEndObject();
    }
}

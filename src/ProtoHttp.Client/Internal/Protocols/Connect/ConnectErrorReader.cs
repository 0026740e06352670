using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;

namespace ProtoHttp.Client.Internal.Protocols.Connect;

/// <summary>
/// Turns a Connect error answer into an <see cref="RpcException"/>: <c>{"code", "message", "details"}</c>. The details
/// go into the trailers as the <c>google.rpc.Status</c> grpc-dotnet keeps them in (<c>grpc-status-details-bin</c>),
/// so <c>Grpc.StatusProto</c>'s <c>GetRpcStatus()</c> reads them as it does under gRPC.
/// </summary>
internal static class ConnectErrorReader
{
    private const int MaxErrorBodySize = 64 * 1024;
    private const string StatusDetailsTrailer = "grpc-status-details-bin";

    public static async Task<RpcException> ReadAsync(HttpResponseMessage response, Metadata trailers, CancellationToken cancellationToken)
    {
        var httpStatus = (int)response.StatusCode;
        using var body = await ResponseBody.ReadAsync(response.Content, MaxErrorBodySize, truncate: true, cancellationToken).ConfigureAwait(false);
        if (!body.Truncated && TryParse(System.Buffers.BuffersExtensions.ToArray(body.Data), trailers) is { } error)
        {
            return error;
        }

        var code = ConnectCodes.FromHttpStatus(httpStatus);
        return new RpcException(new Status(code, $"The server answered {httpStatus} {response.ReasonPhrase} without a Connect error."), trailers);
    }

    /// <summary>
    /// The exception a Connect error object stands for (an error answer's body, or the <c>error</c> of an end-stream
    /// message), with its details added to <paramref name="trailers"/>; <see langword="null"/> when it is no Connect error.
    /// </summary>
    public static RpcException? FromJson(JsonElement error, Metadata trailers)
    {
        try
        {
            if (error.ValueKind != JsonValueKind.Object
                || !error.TryGetProperty("code", out var code) || code.ValueKind != JsonValueKind.String
                || !ConnectCodes.TryParse(code.GetString(), out var status))
            {
                return null;
            }

            var message = error.TryGetProperty("message", out var text) && text.ValueKind == JsonValueKind.String ? text.GetString()! : "";
            var details = new List<Any>();
            if (error.TryGetProperty("details", out var list) && list.ValueKind == JsonValueKind.Array)
            {
                foreach (var detail in list.EnumerateArray())
                {
                    if (detail.ValueKind == JsonValueKind.Object && detail.TryGetProperty("type", out var type) && detail.TryGetProperty("value", out var value)
                        && type.GetString() is { } typeName && value.GetString() is { } base64)
                    {
                        details.Add(new Any { TypeUrl = "type.googleapis.com/" + typeName, Value = ByteString.FromBase64(Pad(base64)) });
                    }
                }
            }

            if (details.Count > 0)
            {
                trailers.Add(StatusDetailsTrailer, StatusBytes(status, message, details));
            }

            return new RpcException(new Status(status, message), trailers);
        }
        catch (Exception ex) when (ex is FormatException or InvalidOperationException)
        {
            return null; // Not a Connect error after all.
        }
    }

    private static RpcException? TryParse(byte[] body, Metadata trailers)
    {
        try
        {
            using var json = JsonDocument.Parse(body);
            return FromJson(json.RootElement, trailers);
        }
        catch (JsonException)
        {
            return null; // Not a Connect error after all: the HTTP status speaks instead.
        }
    }

    // Connect sends base64 without padding, standard or URL-safe.
    private static string Pad(string base64) =>
        base64.Replace('-', '+').Replace('_', '/').PadRight((base64.Length + 3) / 4 * 4, '=');

    // google.rpc.Status written field by field (code 1, message 2, details 3): no dependency on the googleapis types.
    private static byte[] StatusBytes(StatusCode code, string message, List<Any> details)
    {
        using var stream = new MemoryStream();
        var output = new CodedOutputStream(stream);
        output.WriteTag(1, WireFormat.WireType.Varint);
        output.WriteInt32((int)code);
        output.WriteTag(2, WireFormat.WireType.LengthDelimited);
        output.WriteString(message);
        foreach (var detail in details)
        {
            output.WriteTag(3, WireFormat.WireType.LengthDelimited);
            output.WriteMessage(detail);
        }

        output.Flush();
        return stream.ToArray();
    }
}

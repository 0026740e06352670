using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

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
        if (!body.Truncated && TryParse(System.Buffers.BuffersExtensions.ToArray(body.Data)) is { } error)
        {
            if (error.Details.Count > 0)
            {
                trailers.Add(StatusDetailsTrailer, StatusBytes(error.Code, error.Message, error.Details));
            }

            return new RpcException(new Status(error.Code, error.Message), trailers);
        }

        var code = ConnectCodes.FromHttpStatus(httpStatus);
        return new RpcException(new Status(code, $"The server answered {httpStatus} {response.ReasonPhrase} without a Connect error."), trailers);
    }

    private static (StatusCode Code, string Message, List<Any> Details)? TryParse(byte[] body)
    {
        try
        {
            using var json = JsonDocument.Parse(body);
            var root = json.RootElement;
            if (root.ValueKind != JsonValueKind.Object
                || !root.TryGetProperty("code", out var code) || code.ValueKind != JsonValueKind.String
                || !ConnectCodes.TryParse(code.GetString(), out var status))
            {
                return null;
            }

            var message = root.TryGetProperty("message", out var text) && text.ValueKind == JsonValueKind.String ? text.GetString()! : "";
            var details = new List<Any>();
            if (root.TryGetProperty("details", out var list) && list.ValueKind == JsonValueKind.Array)
            {
                foreach (var detail in list.EnumerateArray())
                {
                    if (detail.TryGetProperty("type", out var type) && detail.TryGetProperty("value", out var value)
                        && type.GetString() is { } typeName && value.GetString() is { } base64)
                    {
                        details.Add(new Any { TypeUrl = "type.googleapis.com/" + typeName, Value = ByteString.FromBase64(Pad(base64)) });
                    }
                }
            }

            return (status, message, details);
        }
        catch (Exception ex) when (ex is JsonException or FormatException or InvalidOperationException)
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

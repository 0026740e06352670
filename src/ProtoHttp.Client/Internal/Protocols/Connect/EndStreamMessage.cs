using System.Buffers;
using System.Text.Json;
using Grpc.Core;

namespace ProtoHttp.Client.Internal.Protocols.Connect;

/// <summary>
/// Reads a stream's end-stream envelope (docs/protocol.md section 10): <c>{"error": {"code", "message", "details"},
/// "metadata": {"name": ["value"]}}</c>, the call's outcome and trailers, the same from ProtoHttp and Connect servers.
/// </summary>
internal static class EndStreamMessage
{
    /// <summary>The trailers, and the exception the call ends with or <see langword="null"/> for success.</summary>
    /// <exception cref="RpcException"><c>Internal</c>: the payload is not an end-stream message.</exception>
    public static (Metadata Trailers, RpcException? Error) Read(ReadOnlySequence<byte> payload)
    {
        try
        {
            var reader = new Utf8JsonReader(payload);
            using var json = JsonDocument.ParseValue(ref reader);
            var root = json.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw Unreadable("it is not a JSON object");
            }

            var trailers = new Metadata();
            if (root.TryGetProperty("metadata", out var metadata) && metadata.ValueKind == JsonValueKind.Object)
            {
                AddMetadata(metadata, trailers);
            }

            if (!root.TryGetProperty("error", out var error) || error.ValueKind == JsonValueKind.Null)
            {
                return (trailers, null);
            }

            return (trailers, ConnectErrorReader.FromJson(error, trailers) ?? throw Unreadable("its error has no Connect code"));
        }
        catch (JsonException ex)
        {
            throw Unreadable(ex.Message);
        }
    }

    private static void AddMetadata(JsonElement metadata, Metadata trailers)
    {
        foreach (var property in metadata.EnumerateObject())
        {
            var key = property.Name.ToLowerInvariant();
            if (!MetadataText.IsValidKey(key) || property.Value.ValueKind != JsonValueKind.Array)
            {
                continue; // A name gRPC metadata cannot hold, as for headers.
            }

            var binary = key.EndsWith(Metadata.BinaryHeaderSuffix, StringComparison.Ordinal);
            foreach (var value in property.Value.EnumerateArray())
            {
                if (value.ValueKind != JsonValueKind.String)
                {
                    continue;
                }

                var text = value.GetString()!;
                if (!binary)
                {
                    trailers.Add(key, text);
                }
                else if (MetadataText.TryDecodeBinary(text, out var bytes))
                {
                    trailers.Add(key, bytes);
                }
            }
        }
    }

    private static RpcException Unreadable(string reason) =>
        new(new Status(StatusCode.Internal, $"The stream's end-stream message could not be read: {reason}."));
}

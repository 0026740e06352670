using System.Net.Http.Headers;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>gRPC metadata to HTTP headers and back; <c>-bin</c> values travel base64-encoded (docs/protocol.md section 6).</summary>
internal static class HeaderMetadata
{
    /// <exception cref="RpcException"><c>Internal</c>: an entry cannot be a request header.</exception>
    public static void AddToRequest(Metadata metadata, HttpRequestHeaders headers)
    {
        foreach (var entry in metadata)
        {
            var value = entry.IsBinary ? Convert.ToBase64String(entry.ValueBytes) : entry.Value;
            if (!headers.TryAddWithoutValidation(entry.Key, value))
            {
                // Only content headers (Content-Type, Content-Length, ...) are refused: the invoker owns the body.
                throw new RpcException(new Status(StatusCode.Internal,
                    $"The metadata entry '{entry.Key}' cannot be sent: it names a header of the request body, which the ProtoHttp client sets itself."));
            }
        }
    }

    /// <summary>The headers of a WebSocket's handshake answer, as metadata (none where they were not collected).</summary>
    public static Metadata FromWebSocket(IReadOnlyDictionary<string, IEnumerable<string>>? headers)
    {
        var metadata = new Metadata();
        foreach (var (name, values) in headers ?? new Dictionary<string, IEnumerable<string>>())
        {
            AddValues(metadata, name.ToLowerInvariant(), values);
        }

        return metadata;
    }

    /// <summary>The response's headers, and its HTTP trailers if it has any, as metadata.</summary>
    public static Metadata FromResponse(HttpResponseMessage response, bool withTrailers)
    {
        var metadata = new Metadata();
        Add(metadata, response.Headers);
        if (withTrailers)
        {
            Add(metadata, response.TrailingHeaders);
        }

        return metadata;
    }

    /// <summary>
    /// A Connect unary response's headers, or its trailers: Connect sends trailers as headers named <c>trailer-</c>
    /// and the key.
    /// </summary>
    public static Metadata FromConnectResponse(HttpResponseMessage response, bool trailers)
    {
        var metadata = new Metadata();
        Add(metadata, response.Headers, ConnectTrailerPrefix, trailers);
        return metadata;
    }

    private const string ConnectTrailerPrefix = "trailer-";

    // With a trailer prefix, either only the headers named with it (the prefix dropped) or only the others.
    private static void Add(Metadata metadata, HttpHeaders headers, string? trailerPrefix = null, bool trailersOnly = false)
    {
        foreach (var (name, values) in headers.NonValidated)
        {
            var key = name.ToLowerInvariant();
            if (trailerPrefix is not null)
            {
                var isTrailer = key.StartsWith(trailerPrefix, StringComparison.Ordinal);
                if (isTrailer != trailersOnly)
                {
                    continue;
                }

                key = isTrailer ? key[trailerPrefix.Length..] : key;
            }

            AddValues(metadata, key, values);
        }
    }

    /// <summary>Adds one header's values under <paramref name="key"/> (lower case), <c>-bin</c> ones decoded; a key gRPC metadata cannot hold is left out.</summary>
    public static void AddValues(Metadata metadata, string key, IEnumerable<string> values)
    {
        if (!MetadataText.IsValidKey(key))
        {
            return; // A legal HTTP header name that gRPC metadata cannot hold.
        }

        var binary = key.EndsWith(Metadata.BinaryHeaderSuffix, StringComparison.Ordinal);
        foreach (var value in values)
        {
            if (!binary)
            {
                metadata.Add(key, value);
            }
            else if (MetadataText.TryDecodeBinary(value, out var bytes))
            {
                metadata.Add(key, bytes);
            }
        }
    }
}

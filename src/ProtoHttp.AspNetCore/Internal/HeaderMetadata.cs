using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>HTTP headers to gRPC metadata and back; <c>-bin</c> values travel base64-encoded.</summary>
internal static class HeaderMetadata
{
    public static Metadata FromRequest(IHeaderDictionary headers)
    {
        var metadata = new Metadata();
        foreach (var (name, values) in headers)
        {
            if (name.StartsWith(':'))
            {
                continue; // HTTP/2 pseudo-headers are not metadata.
            }

            var key = name.ToLowerInvariant();
            if (!MetadataText.IsValidKey(key))
            {
                continue; // A legal HTTP header name gRPC metadata cannot hold; the service could not ask for it anyway.
            }

            foreach (var value in values)
            {
                if (value is null)
                {
                    continue;
                }

                if (key.EndsWith(Metadata.BinaryHeaderSuffix, StringComparison.Ordinal))
                {
                    metadata.Add(key, DecodeBinary(key, value));
                }
                else
                {
                    metadata.Add(key, value);
                }
            }
        }

        return metadata;
    }

    /// <summary>Adds each entry as a header named <paramref name="prefix"/> + its key, all but <paramref name="except"/>.</summary>
    public static void AddToResponse(Metadata metadata, IHeaderDictionary headers, string prefix = "", string? except = null)
    {
        foreach (var entry in metadata)
        {
            if (entry.Key == except)
            {
                continue;
            }

            var value = entry.IsBinary ? Convert.ToBase64String(entry.ValueBytes) : entry.Value;
            if (IsPrintableAscii(value))
            {
                // gRPC allows only printable ASCII in text metadata and Kestrel refuses anything else in a header;
                // a value that breaks the rule is dropped rather than turning the whole answer into a 500.
                headers.Append(prefix + entry.Key, value);
            }
        }
    }

    private static bool IsPrintableAscii(string value) => !value.AsSpan().ContainsAnyExceptInRange(' ', '~');

    private static byte[] DecodeBinary(string key, string value) =>
        MetadataText.TryDecodeBinary(value, out var bytes)
            ? bytes
            : throw CallRejectedException.BadRequest($"The header '{key}' ends in -bin, so its value must be base64.");
}

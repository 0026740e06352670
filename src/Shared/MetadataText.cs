namespace ProtoHttp;

/// <summary>The header rules gRPC metadata brings, shared by the server and the client (docs/protocol.md sections 6 and 9).</summary>
internal static class MetadataText
{
    /// <summary>Whether a lower-cased header name can be a metadata key: <c>a-z 0-9 - _ .</c> only.</summary>
    public static bool IsValidKey(string key)
    {
        foreach (var c in key)
        {
            if (c is not ((>= 'a' and <= 'z') or (>= '0' and <= '9') or '-' or '_' or '.'))
            {
                return false;
            }
        }

        return key.Length > 0;
    }

    /// <summary>Decodes a <c>-bin</c> header's base64 value; gRPC senders often leave out the padding.</summary>
    public static bool TryDecodeBinary(string value, out byte[] bytes)
    {
        var padded = (value.Length % 4) switch
        {
            2 => value + "==",
            3 => value + "=",
            _ => value,
        };

        try
        {
            bytes = Convert.FromBase64String(padded);
            return true;
        }
        catch (FormatException)
        {
            bytes = [];
            return false;
        }
    }
}

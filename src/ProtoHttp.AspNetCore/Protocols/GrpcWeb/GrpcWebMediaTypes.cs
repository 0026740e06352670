namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// The gRPC-Web media types of a service's codecs: <c>application/grpc-web</c> (protobuf) and
/// <c>application/grpc-web+{name}</c> of each Connect codec (<see cref="MessageCodec.CanBeEnveloped"/>; <c>+json</c> is
/// what connect-es sends with <c>useBinaryFormat: false</c>), and the same with <c>-text</c> for the binary codecs, whose
/// frames browsers without binary XHR send as base64.
/// </summary>
internal static class GrpcWebMediaTypes
{
    public const string Binary = "application/grpc-web";
    public const string Text = "application/grpc-web-text";

    // Only grpc-dotnet's gRPC-Web middleware sends this here: GrpcWebClaim gives gRPC-Web's endpoint no other
    // request that is not gRPC-Web.
    private const string Translated = "application/grpc";

    /// <summary>Every type the service's codecs read, canonical first: the endpoint's metadata and <c>Accept-Post</c> on a 415.</summary>
    public static string[] All(MessageCodecs codecs)
    {
        ArgumentNullException.ThrowIfNull(codecs);
        var binary = codecs.All.Where(codec => codec.CanBeEnveloped).ToArray();
        return
        [
            Binary,
            .. binary.Select(codec => Binary + "+" + codec.Name),
            Text,
            .. binary.Where(codec => !codec.IsText).Select(codec => Text + "+" + codec.Name),
        ];
    }

    /// <summary>
    /// Whether <paramref name="contentType"/> is any gRPC-Web type, a codec this server has or not: such a request is
    /// gRPC-Web's to answer, never Connect's.
    /// </summary>
    public static bool IsGrpcWeb(string? contentType) =>
        contentType is not null && contentType.StartsWith(Binary, StringComparison.OrdinalIgnoreCase)
        && (contentType.Length == Binary.Length || contentType[Binary.Length] is '+' or '-' or ';' or ' ');

    /// <summary>The type <paramref name="contentType"/> names, or <see langword="null"/> for a codec this server does not have.</summary>
    /// <remarks>
    /// Media types are case-insensitive (RFC 9110, section 8.3.1), so the prefixes and the codec's name are compared
    /// so, without a lower-cased copy per call; the answer's type is the request's own string where it is already the
    /// plain lower-case type (what clients send), and is made from the parts only where it has parameters or capitals.
    /// </remarks>
    public static GrpcWebMediaType? Parse(string? contentType, MessageCodecs codecs)
    {
        ArgumentNullException.ThrowIfNull(codecs);
        if (contentType is null)
        {
            return null;
        }

        // Parameters (a charset on +json) change nothing: gRPC-Web's JSON is UTF-8.
        var end = contentType.IndexOf(';');
        var type = (end < 0 ? contentType.AsSpan() : contentType.AsSpan(0, end)).Trim();
        var prefix = type.StartsWith(Text, StringComparison.OrdinalIgnoreCase) ? Text
            : type.StartsWith(Binary, StringComparison.OrdinalIgnoreCase) ? Binary
            : type.StartsWith(Translated, StringComparison.OrdinalIgnoreCase) ? Translated
            : null;
        if (prefix is null)
        {
            return null;
        }

        var name = type[prefix.Length..];
        if (name.Length > 0 && name[0] != '+')
        {
            return null;
        }

        var codec = name.Length == 0 ? codecs.Codec(CodecNames.Protobuf) : Find(name[1..], codecs);
        var text = ReferenceEquals(prefix, Text);
        if (codec is null || (text && codec.IsText))
        {
            return null;
        }

        var responseType = type.Length == contentType.Length && !HasUpperCase(type) ? contentType
            : name.Length == 0 ? prefix
            : prefix + "+" + codec.Name;
        return new GrpcWebMediaType(codec, text, responseType, Translated: ReferenceEquals(prefix, Translated));
    }

    private static bool HasUpperCase(ReadOnlySpan<char> type)
    {
        foreach (var c in type)
        {
            if (char.IsAsciiLetterUpper(c))
            {
                return true;
            }
        }

        return false;
    }

    private static MessageCodec? Find(ReadOnlySpan<char> name, MessageCodecs codecs)
    {
        foreach (var codec in codecs.All)
        {
            if (codec.CanBeEnveloped && name.Equals(codec.Name, StringComparison.OrdinalIgnoreCase))
            {
                return codec;
            }
        }

        return null;
    }
}

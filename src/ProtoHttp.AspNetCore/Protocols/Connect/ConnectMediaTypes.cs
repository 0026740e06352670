using Microsoft.Net.Http.Headers;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// The Connect protocol's unary media types: a Connect codec (<see cref="MessageCodec.CanBeEnveloped"/>) named
/// <c>name</c> travels as <c>application/{name}</c>, and a GET names it as <c>encoding={name}</c>.
/// </summary>
internal static class ConnectMediaTypes
{
    private const string Prefix = "application/";

    /// <summary>Connect's error JSON, whatever the call's codec.</summary>
    public const string Json = "application/json";

    /// <summary>
    /// What an answer in each Connect codec goes out as (<c>application/json; charset=utf-8</c>, which Connect clients
    /// accept), built once per handler so a call only finds its codec's.
    /// </summary>
    public static WritableMediaType[] Responses(MessageCodecs codecs) => [.. ConnectCodecs(codecs).Select(codec => new WritableMediaType(Prefix + codec.Name, codec))];

    /// <summary>The codecs this server reads, for <c>Accept-Post</c> on a 415.</summary>
    public static string AcceptPost(MessageCodecs codecs) => string.Join(", ", ConnectCodecs(codecs).Select(codec => Prefix + codec.Name));

    /// <summary>The names a GET's <c>encoding</c> may have, for the text of a 400 or 415: JSON's first, what a GET in a URL mostly holds.</summary>
    public static string EncodingNames(MessageCodecs codecs)
    {
        var json = codecs.Codec(CodecNames.Json);
        string[] names = [.. ConnectCodecs(codecs).OrderBy(codec => codec == json ? 0 : 1).Select(codec => codec.Name)];
        return names.Length == 1 ? names[0] : $"{string.Join(", ", names[..^1])} or {names[^1]}";
    }

    /// <summary>
    /// The codec of a unary request's <c>Content-Type</c>, <c>application/{name}</c> of a Connect codec (a text codec's
    /// charset other than utf-8 is refused), or null for anything else.
    /// </summary>
    public static MessageCodec? Codec(string? contentType, MessageCodecs codecs)
    {
        // What Connect clients send, exactly application/{name} with no parameter, needs no parse: every call would
        // allocate a MediaTypeHeaderValue for it.
        if (contentType is not null && contentType.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase)
            && Find(contentType.AsSpan(Prefix.Length), codecs, StringComparison.OrdinalIgnoreCase) is { } exact)
        {
            return exact;
        }

        if (!MediaTypeHeaderValue.TryParse(contentType, out var parsed)
            || !parsed.MediaType.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase)
            || Find(parsed.MediaType.AsSpan(Prefix.Length), codecs, StringComparison.OrdinalIgnoreCase) is not { } codec)
        {
            return null;
        }

        var charset = parsed.Charset;
        return !codec.IsText || !charset.HasValue || charset.Equals("utf-8", StringComparison.OrdinalIgnoreCase) ? codec : null;
    }

    /// <summary>The codec a GET's <c>encoding</c> parameter names: a Connect codec's name, <c>proto</c> or <c>json</c> built in.</summary>
    public static MessageCodec? Encoding(string name, MessageCodecs codecs) => Find(name, codecs, StringComparison.Ordinal);

    private static MessageCodec? Find(ReadOnlySpan<char> name, MessageCodecs codecs, StringComparison comparison)
    {
        foreach (var codec in codecs.All)
        {
            if (codec.CanBeEnveloped && name.Equals(codec.Name, comparison))
            {
                return codec;
            }
        }

        return null;
    }

    private static IEnumerable<MessageCodec> ConnectCodecs(MessageCodecs codecs) => codecs.All.Where(codec => codec.CanBeEnveloped);
}

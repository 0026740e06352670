using Microsoft.Net.Http.Headers;

namespace ProtoHttp.AspNetCore.Connect;

/// <summary>The Connect protocol's unary media types and the codec each names.</summary>
internal static class ConnectMediaTypes
{
    public const string Proto = "application/proto";
    public const string Json = "application/json";

    /// <summary>What a protobuf answer goes out as.</summary>
    public static WritableMediaType ProtoResponse { get; } = new(Proto, MessageFormat.Protobuf);

    /// <summary>What a JSON answer goes out as: <c>application/json; charset=utf-8</c>, which Connect clients accept.</summary>
    public static WritableMediaType JsonResponse { get; } = new(Json, MessageFormat.Json);

    /// <summary>The codecs this server reads and writes, for <c>Accept-Post</c> on a 415.</summary>
    public const string AcceptPost = "application/proto, application/json";

    /// <summary>
    /// The codec of a unary request's <c>Content-Type</c>: <c>application/proto</c> or <c>application/json</c>
    /// (a JSON charset other than utf-8 is refused), or null for anything else.
    /// </summary>
    public static MessageFormat? Codec(string? contentType)
    {
        if (!MediaTypeHeaderValue.TryParse(contentType, out var parsed))
        {
            return null;
        }

        var charset = parsed.Charset;
        if (parsed.MediaType.Equals(Proto, StringComparison.OrdinalIgnoreCase))
        {
            return MessageFormat.Protobuf;
        }

        if (parsed.MediaType.Equals(Json, StringComparison.OrdinalIgnoreCase)
            && (!charset.HasValue || charset.Equals("utf-8", StringComparison.OrdinalIgnoreCase)))
        {
            return MessageFormat.Json;
        }

        return null;
    }

    /// <summary>The codec a GET's <c>encoding</c> parameter names: <c>proto</c> or <c>json</c>.</summary>
    public static MessageFormat? Encoding(string? name) => name switch
    {
        "proto" => MessageFormat.Protobuf,
        "json" => MessageFormat.Json,
        _ => null,
    };
}

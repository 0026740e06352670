namespace ProtoHttp.AspNetCore.GrpcWeb;

/// <summary>
/// The gRPC-Web media types: <c>application/grpc-web</c> and <c>application/grpc-web-text</c>, each alone or with
/// <c>+proto</c> or <c>+json</c> (the JSON codec is what connect-es sends with <c>useBinaryFormat: false</c>).
/// </summary>
internal static class GrpcWebMediaTypes
{
    public const string Binary = "application/grpc-web";
    public const string Text = "application/grpc-web-text";

    /// <summary>The types this server reads, for <c>Accept-Post</c> on a 415.</summary>
    public const string AcceptPost =
        "application/grpc-web, application/grpc-web+proto, application/grpc-web+json, application/grpc-web-text, application/grpc-web-text+proto";

    private static readonly GrpcWebMediaType[] Known =
    [
        new(MessageFormat.Protobuf, Text: false, Binary),
        new(MessageFormat.Protobuf, Text: false, Binary + "+proto"),
        new(MessageFormat.Json, Text: false, Binary + "+json"),
        new(MessageFormat.Protobuf, Text: true, Text),
        new(MessageFormat.Protobuf, Text: true, Text + "+proto"),

        // Only grpc-dotnet's gRPC-Web middleware sends these here: GrpcWebMatcherPolicy gives gRPC-Web's endpoint no
        // other request that is not gRPC-Web.
        new(MessageFormat.Protobuf, Text: false, "application/grpc", Translated: true),
        new(MessageFormat.Protobuf, Text: false, "application/grpc+proto", Translated: true),
        new(MessageFormat.Json, Text: false, "application/grpc+json", Translated: true),
    ];

    /// <summary>
    /// Whether <paramref name="contentType"/> is any gRPC-Web type, a codec this server has or not: such a request is
    /// gRPC-Web's to answer, never Connect's.
    /// </summary>
    public static bool IsGrpcWeb(string? contentType) =>
        contentType is not null && contentType.StartsWith(Binary, StringComparison.OrdinalIgnoreCase)
        && (contentType.Length == Binary.Length || contentType[Binary.Length] is '+' or '-' or ';' or ' ');

    /// <summary>The type <paramref name="contentType"/> names, or <see langword="null"/> for a codec this server does not have.</summary>
    public static GrpcWebMediaType? Parse(string? contentType)
    {
        if (contentType is null)
        {
            return null;
        }

        // Parameters (a charset on +json) change nothing: gRPC-Web's JSON is UTF-8.
        var end = contentType.IndexOf(';');
        var type = (end < 0 ? contentType : contentType[..end]).Trim();
        foreach (var known in Known)
        {
            if (type.Equals(known.ContentType, StringComparison.OrdinalIgnoreCase))
            {
                return known;
            }
        }

        return null;
    }
}

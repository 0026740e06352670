using System.Collections.Immutable;

namespace ProtoHttp;

/// <summary>The media types of each format (docs/protocol.md section 2), canonical type first.</summary>
public static class MediaTypes
{
    /// <summary>Protobuf's canonical media type, <c>application/x-protobuf</c>.</summary>
    public const string Protobuf = "application/x-protobuf";

    /// <summary>JSON's canonical media type, <c>application/json</c>.</summary>
    public const string Json = "application/json";

    /// <summary>XML's canonical media type, <c>application/xml</c>.</summary>
    public const string Xml = "application/xml";

    /// <summary>The media type of form bodies, <c>application/x-www-form-urlencoded</c>.</summary>
    public const string Form = "application/x-www-form-urlencoded";

    /// <summary>The types a response can be written in, in tie-break order: protobuf, JSON, XML, canonical first.</summary>
    public static ImmutableArray<WritableMediaType> Writable { get; } =
    [
        new(Protobuf, MessageFormat.Protobuf),
        new("application/protobuf", MessageFormat.Protobuf),
        new("application/vnd.google.protobuf", MessageFormat.Protobuf),
        new("application/proto", MessageFormat.Protobuf),
        new(Json, MessageFormat.Json),
        new("text/json", MessageFormat.Json),
        new(Xml, MessageFormat.Xml),
        new("text/xml", MessageFormat.Xml),
    ];

    /// <summary>The value of <c>Accept-Post</c>: every type a request body can be sent in.</summary>
    public const string AcceptPost =
        "application/x-protobuf, application/protobuf, application/vnd.google.protobuf, application/proto, " +
        "application/json, text/json, application/*+json, application/xml, text/xml, application/*+xml, " +
        "application/x-www-form-urlencoded";

    /// <summary>The canonical type a response in <paramref name="format"/> is written with (JSON for forms, which are read only).</summary>
    public static WritableMediaType Canonical(MessageFormat format) => format switch
    {
        MessageFormat.Protobuf => Writable[0],
        MessageFormat.Xml => Writable[6],
        _ => Writable[4],
    };

    /// <summary>Finds the format of a request <c>Content-Type</c>.</summary>
    /// <returns>The outcome; <see cref="ContentTypeMatch.Format"/> is set when it is <see cref="ContentTypeStatus.Readable"/>.</returns>
    public static ContentTypeMatch MatchContentType(string contentType)
    {
        var span = contentType.AsSpan();
        var semicolon = span.IndexOf(';');
        var type = (semicolon < 0 ? span : span[..semicolon]).Trim();
        var parameters = semicolon < 0 ? ReadOnlySpan<char>.Empty : span[(semicolon + 1)..];

        MessageFormat format;
        if (IsAny(type, "application/x-protobuf", "application/protobuf", "application/vnd.google.protobuf", "application/proto"))
        {
            return new ContentTypeMatch(ContentTypeStatus.Readable, MessageFormat.Protobuf);
        }
        else if (IsAny(type, "application/json", "text/json") || HasSuffix(type, "+json"))
        {
            format = MessageFormat.Json;
        }
        else if (IsAny(type, "application/xml", "text/xml") || HasSuffix(type, "+xml"))
        {
            format = MessageFormat.Xml;
        }
        else if (type.Equals(Form, StringComparison.OrdinalIgnoreCase))
        {
            format = MessageFormat.Form;
        }
        else
        {
            return new ContentTypeMatch(ContentTypeStatus.Unknown, default);
        }

        return IsUtf8OrAbsent(parameters)
            ? new ContentTypeMatch(ContentTypeStatus.Readable, format)
            : new ContentTypeMatch(ContentTypeStatus.UnsupportedCharset, format);
    }

    private static bool IsAny(ReadOnlySpan<char> type, string a, string b) =>
        type.Equals(a, StringComparison.OrdinalIgnoreCase) || type.Equals(b, StringComparison.OrdinalIgnoreCase);

    private static bool IsAny(ReadOnlySpan<char> type, string a, string b, string c, string d) =>
        IsAny(type, a, b) || IsAny(type, c, d);

    private static bool HasSuffix(ReadOnlySpan<char> type, string suffix) =>
        type.Contains('/') && type.EndsWith(suffix, StringComparison.OrdinalIgnoreCase);

    private static bool IsUtf8OrAbsent(ReadOnlySpan<char> parameters)
    {
        foreach (var range in parameters.Split(';'))
        {
            var parameter = parameters[range];
            var equals = parameter.IndexOf('=');
            if (equals < 0 || !parameter[..equals].Trim().Equals("charset", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            var value = parameter[(equals + 1)..].Trim().Trim('"');
            return value.Equals("utf-8", StringComparison.OrdinalIgnoreCase) || value.Equals("utf8", StringComparison.OrdinalIgnoreCase);
        }

        return true;
    }
}

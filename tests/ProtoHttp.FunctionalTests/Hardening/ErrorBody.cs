using System.Text;
using System.Text.Json;
using System.Xml.Linq;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>Reads an ErrorResult, or any answer, in whichever format its Content-Type names, with parsers independent of the server's.</summary>
public static class ErrorBody
{
    /// <summary>The ErrorResult of an answer, or null when the body is not one in its declared format.</summary>
    public static ErrorResult? TryRead(string? contentType, byte[] body)
    {
        try
        {
            var error = Kind(contentType) switch
            {
                "protobuf" => ErrorResult.Parser.ParseFrom(body),
                "json" => JsonParser.Default.Parse<ErrorResult>(Encoding.UTF8.GetString(body)),
                "xml" => FromXml(body),
                _ => null,
            };
            return error is { Code.Length: > 0, ErrorText.Length: > 0 } ? error : null;
        }
        catch (Exception ex) when (ex is InvalidProtocolBufferException or InvalidJsonException or System.Xml.XmlException or FormatException)
        {
            return null;
        }
    }

    /// <summary>Whether a 200 answer's body is well-formed in its declared format (protobuf is checked by the caller's parser).</summary>
    public static bool IsWellFormed(string? contentType, byte[] body, MessageParser parser)
    {
        try
        {
            switch (Kind(contentType))
            {
                case "protobuf":
                    parser.ParseFrom(body);
                    return true;
                case "json":
                    // Messages may nest 100 deep, and every object of JSON one level: past JsonDocument's default of 64.
                    using (JsonDocument.Parse(body, new JsonDocumentOptions { MaxDepth = 256 }))
                    {
                        return true;
                    }

                case "xml":
                    XDocument.Parse(Encoding.UTF8.GetString(body));
                    return true;
                default:
                    return false;
            }
        }
        catch (Exception ex) when (ex is InvalidProtocolBufferException or JsonException or System.Xml.XmlException)
        {
            return false;
        }
    }

    public static string? Kind(string? contentType) => contentType?.Split(';')[0].Trim() switch
    {
        "application/x-protobuf" or "application/protobuf" or "application/vnd.google.protobuf" or "application/proto" => "protobuf",
        "application/json" or "text/json" => "json",
        "application/xml" or "text/xml" => "xml",
        _ => null,
    };

    private static ErrorResult FromXml(byte[] body)
    {
        var root = XDocument.Parse(Encoding.UTF8.GetString(body)).Root!;
        return new ErrorResult { Code = root.Element("code")?.Value ?? "", ErrorText = root.Element("error_text")?.Value ?? "" };
    }
}

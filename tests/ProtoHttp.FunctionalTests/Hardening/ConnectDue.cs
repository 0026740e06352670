using System.Text;
using System.Text.Json;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// What a Connect call to Echo or SafeEcho is due, found without the server's codecs: the message Google.Protobuf
/// reads from what was sent (a 200 whose answer, read by Google.Protobuf, is equal to it), or a refusal with its
/// status, Connect code and the words its message must quote (docs/protocol.md section 7; Connect's error JSON).
/// </summary>
public sealed record ConnectDue(Specimen? Echo, int Status, string Code, IReadOnlyList<string> Named)
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    public static ConnectDue Answer(Specimen message) => new(message, 200, "", []);

    public static ConnectDue Refusal(int status, string code, params string[] named) => new(null, status, code, named);

    public static ConnectDue Invalid(params string[] named) => Refusal(400, "invalid_argument", named);

    /// <summary>A protobuf body as Google.Protobuf's parser reads it: the message, or a refusal.</summary>
    public static ConnectDue OfProtobuf(byte[] body)
    {
        try
        {
            return Answer(Specimen.Parser.ParseFrom(body));
        }
        catch (InvalidProtocolBufferException)
        {
            return Invalid();
        }
    }

    /// <summary>
    /// A JSON body as <see cref="JsonReference"/> (Google.Protobuf's JsonParser, set as the server's reader) reads it:
    /// the message, or a refusal quoting <paramref name="named"/>; null where one of the reader's deliberate
    /// departures (<see cref="JsonDepartures"/>) applies, or the body is empty (which the codec reads as the empty
    /// message before any JSON reader sees it, and JsonParser refuses), so the reference does not decide.
    /// </summary>
    public static ConnectDue? OfJson(JsonReference reference, byte[] body, params string[] named)
    {
        string json;
        try
        {
            json = StrictUtf8.GetString(body);
        }
        catch (DecoderFallbackException)
        {
            return Invalid(named);
        }

        if (body.Length == 0 || JsonDepartures.Find(json, Specimen.Descriptor) is { DuplicateField: true } or { Base64Url: true } or { NullOneofMember: true })
        {
            return null;
        }

        return reference.Parse(json, Specimen.Descriptor) is ({ } message, _) ? Answer((Specimen)message) : Invalid(named);
    }

    /// <returns>What is wrong with <paramref name="response"/>, or <see langword="null"/>.</returns>
    public string? Judge(RawResponse response, JsonReference reference)
    {
        var contentType = response.Header("Content-Type");
        if (Echo is { } expected)
        {
            if (response.Status != 200)
            {
                return $"Google.Protobuf reads it, the server answered {response.Status}: {Encoding.UTF8.GetString(response.Body)}";
            }

            // An answer to a gzipped request goes out gzipped, that being what the client accepts (Connect's spec).
            var body = response.Header("Content-Encoding") == "gzip" ? Infrastructure.ConnectWire.Gunzip(response.Body) : response.Body;
            var (echoed, problem) = Read(contentType, body, reference);
            return echoed is null ? $"the echo cannot be read as a Specimen: {problem}"
                : echoed.Equals(expected) ? null
                : $"echoed {echoed}, Google.Protobuf read {expected}";
        }

        var (code, text) = ConnectError(contentType, response.Body);
        if ((response.Status, code) != (Status, Code))
        {
            return $"{response.Status} {code} ({text}), where {Status} {Code} was due";
        }

        return Named.FirstOrDefault(n => text?.Contains(n, StringComparison.Ordinal) != true) is { } missing
            ? $"the refusal does not name '{missing}': {text}"
            : null;
    }

    private static (Specimen?, string?) Read(string? contentType, byte[] body, JsonReference reference)
    {
        switch (contentType?.Split(';')[0].Trim())
        {
            case "application/proto":
                try
                {
                    return (Specimen.Parser.ParseFrom(body), null);
                }
                catch (InvalidProtocolBufferException ex)
                {
                    return (null, ex.Message);
                }

            case "application/json":
                var (message, refusal) = reference.Parse(Encoding.UTF8.GetString(body), Specimen.Descriptor);
                return ((Specimen?)message, refusal);
            default:
                return (null, $"it came as {contentType}");
        }
    }

    private static (string? Code, string? Message) ConnectError(string? contentType, byte[] body)
    {
        try
        {
            using var error = JsonDocument.Parse(body);
            return contentType == "application/json"
                ? (error.RootElement.GetProperty("code").GetString(), error.RootElement.TryGetProperty("message", out var text) ? text.GetString() : null)
                : (null, null);
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException)
        {
            return (null, null);
        }
    }
}

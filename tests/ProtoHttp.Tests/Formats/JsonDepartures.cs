using System.Text.Json;
using System.Text.Json.Nodes;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// Where ProtoHttp's JSON reader deliberately parts from Google.Protobuf's JsonParser, to follow the protobuf JSON
/// spec as Google's conformance suite checks it: a field given twice is refused; bytes take URL-safe and unpadded
/// base64; a null member of a oneof sets nothing. The differential tests ask this class what JsonParser should be
/// given instead of a body, so each departure is accounted for exactly and nothing else is excused.
/// </summary>
internal static class JsonDepartures
{
    /// <summary>
    /// The body JsonParser reads into what ProtoHttp must read from <paramref name="body"/>: bytes values made
    /// padded standard base64, null oneof members dropped. <see langword="null"/> when ProtoHttp must refuse the
    /// body because a field is given twice. The body itself when it is not JSON that System.Text.Json reads.
    /// </summary>
    public static string? ReferenceBody(string body, MessageDescriptor descriptor)
    {
        JsonNode? root;
        try
        {
            root = JsonNode.Parse(body, documentOptions: new JsonDocumentOptions { MaxDepth = 1000 });
        }
        catch (Exception ex) when (ex is JsonException or ArgumentException or InvalidOperationException)
        {
            return body;
        }

        if (root is not JsonObject message)
        {
            return body;
        }

        try
        {
            if (HasDuplicateField(body, descriptor))
            {
                return null;
            }

            return Rewrite(message, descriptor) ? root.ToJsonString() : body;
        }
        catch (ArgumentException)
        {
            // JsonNode refuses two equal keys (in a map, where they are no field given twice): nothing to rewrite.
            return body;
        }
    }

    private static bool HasDuplicateField(string body, MessageDescriptor descriptor)
    {
        using var document = JsonDocument.Parse(body, new JsonDocumentOptions { MaxDepth = 1000 });
        return HasDuplicateField(document.RootElement, descriptor);
    }

    private static bool HasDuplicateField(JsonElement element, MessageDescriptor descriptor)
    {
        if (element.ValueKind != JsonValueKind.Object || descriptor.File.Package == "google.protobuf")
        {
            return false;
        }

        var seen = new HashSet<int>();
        foreach (var property in element.EnumerateObject())
        {
            var field = Field(descriptor, property.Name);
            if (field is null)
            {
                continue;
            }

            if (!seen.Add(field.FieldNumber))
            {
                return true;
            }

            if (field.FieldType is FieldType.Message or FieldType.Group && !field.IsMap)
            {
                var items = field.IsRepeated && property.Value.ValueKind == JsonValueKind.Array
                    ? property.Value.EnumerateArray().ToArray()
                    : [property.Value];
                if (items.Any(item => HasDuplicateField(item, field.MessageType)))
                {
                    return true;
                }
            }
        }

        return false;
    }

    // True when something was changed.
    private static bool Rewrite(JsonObject message, MessageDescriptor descriptor)
    {
        if (descriptor.File.Package == "google.protobuf" && descriptor.Name != "BytesValue")
        {
            return false;
        }

        var changed = false;
        var oneofsSet = message
            .Where(p => p.Value is not null && Field(descriptor, p.Key) is { ContainingOneof: { } })
            .Select(p => Field(descriptor, p.Key)!.ContainingOneof.Index)
            .ToHashSet();
        foreach (var (name, value) in message.ToArray())
        {
            var field = Field(descriptor, name);
            if (field is null)
            {
                continue;
            }

            if (value is null && field.ContainingOneof is { } oneof && !NullIsValue(field) && oneofsSet.Contains(oneof.Index))
            {
                message.Remove(name);
                changed = true;
                continue;
            }

            var valueField = field.IsMap ? field.MessageType.FindFieldByNumber(2) : field;
            IEnumerable<JsonNode?> items = field.IsMap && value is JsonObject map ? map.Select(p => p.Value)
                : field.IsRepeated && value is JsonArray list ? list.AsEnumerable()
                : new[] { value };
            foreach (var item in items.ToArray())
            {
                changed |= RewriteValue(item, valueField);
            }
        }

        return changed;
    }

    private static bool RewriteValue(JsonNode? value, FieldDescriptor field)
    {
        if (field.FieldType == FieldType.Bytes && value is JsonValue text && text.TryGetValue<string>(out var base64) && Standard(base64) is { } standard && standard != base64)
        {
            text.ReplaceWith(JsonValue.Create(standard));
            return true;
        }

        return field.FieldType is FieldType.Message or FieldType.Group && value is JsonObject nested && Rewrite(nested, field.MessageType)
            || field.FieldType == FieldType.Message && field.MessageType.Name == "BytesValue" && RewriteValue(value, field.MessageType.FindFieldByNumber(1));
    }

    // Padded standard base64 for URL-safe or unpadded text; null when the text is no base64 of either kind.
    private static string? Standard(string text)
    {
        if (text.Any(c => !(char.IsAsciiLetterOrDigit(c) || char.IsWhiteSpace(c) || c is '+' or '/' or '-' or '_' or '=')))
        {
            return null;
        }

        var letters = text.Contains('=') ? 0 : text.Count(c => !char.IsWhiteSpace(c));
        var padded = letters % 4 is 2 or 3 ? text + new string('=', 4 - letters % 4) : text;
        return padded.Replace('-', '+').Replace('_', '/');
    }

    private static bool NullIsValue(FieldDescriptor field) =>
        field.FieldType == FieldType.Enum && field.EnumType.FullName == "google.protobuf.NullValue"
        || field.FieldType == FieldType.Message && field.MessageType.FullName == "google.protobuf.Value";

    // JSON names first, as the reader matches them.
    private static FieldDescriptor? Field(MessageDescriptor descriptor, string name) =>
        descriptor.Fields.InDeclarationOrder().FirstOrDefault(f => f.JsonName == name)
        ?? descriptor.Fields.InDeclarationOrder().FirstOrDefault(f => f.Name == name);
}

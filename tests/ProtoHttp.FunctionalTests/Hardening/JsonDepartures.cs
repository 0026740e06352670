using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Where a body falls in one of the deliberate departures of the JSON reader from JsonParser (made to pass Google's
/// conformance suite), found by exact predicates over the body re-read with System.Text.Json:
/// <list type="number">
/// <item>a field given twice in one object (by the same name, or by its proto and JSON names): the server may refuse;</item>
/// <item>a bytes value JsonParser refuses that is base64url or unpadded base64: the server may read it as that base64;</item>
/// <item>a oneof member given <c>null</c>: the server may read the body as if that member were absent.</item>
/// </list>
/// Departures 2 and 3 are checked, not assumed: <see cref="Normalized"/> is the body with those values rewritten
/// (bytes in padded standard base64, null oneof members dropped), and what the server reads must equal what JsonParser
/// reads from it. A fourth rule (NaN and Infinity in a <c>google.protobuf.Value</c> are not written) is about writing;
/// JSON input can only give such a Value strings, so nothing is read differently.
/// </summary>
public sealed record JsonDepartures(bool DuplicateField, bool Base64Url, bool NullOneofMember, string? Normalized)
{
    public static readonly JsonDepartures None = new(false, false, false, null);

    // Deeper bodies are not examined: none of the departures is then allowed.
    private const int MaxDepth = 256;

    private static readonly JsonWriterOptions WriterOptions = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping, MaxDepth = MaxDepth + 1 };

    public static JsonDepartures Find(string json, MessageDescriptor descriptor)
    {
        try
        {
            using var document = JsonDocument.Parse(json, new JsonDocumentOptions { MaxDepth = MaxDepth });
            var output = new MemoryStream();
            var finder = new Finder(new Utf8JsonWriter(output, WriterOptions));
            finder.Element(document.RootElement, descriptor);
            finder.Writer.Flush();
            var rewritten = finder.Base64Url || finder.NullOneofMember;
            return new JsonDepartures(finder.DuplicateField, finder.Base64Url, finder.NullOneofMember, rewritten ? Encoding.UTF8.GetString(output.ToArray()) : null);
        }
        catch (Exception ex) when (ex is JsonException or InvalidOperationException or ArgumentException)
        {
            // Not JSON System.Text.Json reads (or a lone surrogate escape): no departure applies.
            return None;
        }
    }

    private sealed class Finder(Utf8JsonWriter writer)
    {
        public Utf8JsonWriter Writer => writer;

        public bool DuplicateField { get; private set; }

        public bool Base64Url { get; private set; }

        public bool NullOneofMember { get; private set; }

        /// <summary>Copies a value; <paramref name="message"/> is its type when it is read as an ordinary message.</summary>
        public void Element(JsonElement element, MessageDescriptor? message)
        {
            switch (element.ValueKind)
            {
                case JsonValueKind.Object:
                    Object(element, message);
                    break;
                case JsonValueKind.Array:
                    writer.WriteStartArray();
                    foreach (var item in element.EnumerateArray())
                    {
                        Element(item, null);
                    }

                    writer.WriteEndArray();
                    break;
                default:
                    element.WriteTo(writer);
                    break;
            }
        }

        private void Object(JsonElement element, MessageDescriptor? message)
        {
            var names = new HashSet<string>(StringComparer.Ordinal);
            var fields = new HashSet<FieldDescriptor>();
            writer.WriteStartObject();
            foreach (var property in element.EnumerateObject())
            {
                // Any object (a map, a Struct) with a key twice; in a message also one field by two names.
                var field = message is null ? null : Field(message, property.Name);
                DuplicateField |= !names.Add(property.Name) || (field is not null && !fields.Add(field));
                if (field?.ContainingOneof is not null && property.Value.ValueKind == JsonValueKind.Null && !NullIsAValue(field))
                {
                    NullOneofMember = true;
                    continue;
                }

                writer.WritePropertyName(property.Name);
                if (field is null)
                {
                    Element(property.Value, null);
                }
                else if (field.IsMap && property.Value.ValueKind == JsonValueKind.Object)
                {
                    var keys = new HashSet<string>(StringComparer.Ordinal);
                    writer.WriteStartObject();
                    foreach (var entry in property.Value.EnumerateObject())
                    {
                        DuplicateField |= !keys.Add(entry.Name);
                        writer.WritePropertyName(entry.Name);
                        Value(entry.Value, field.MessageType.FindFieldByNumber(2));
                    }

                    writer.WriteEndObject();
                }
                else if (field.IsRepeated && property.Value.ValueKind == JsonValueKind.Array)
                {
                    writer.WriteStartArray();
                    foreach (var item in property.Value.EnumerateArray())
                    {
                        Value(item, field);
                    }

                    writer.WriteEndArray();
                }
                else
                {
                    Value(property.Value, field);
                }
            }

            writer.WriteEndObject();
        }

        // One value of a field (one item of a repeated field, one map value).
        private void Value(JsonElement value, FieldDescriptor field)
        {
            var isBytes = field.FieldType == FieldType.Bytes || (field.FieldType == FieldType.Message && field.MessageType == BytesValue.Descriptor);
            if (isBytes && value.ValueKind == JsonValueKind.String)
            {
                var text = value.GetString()!;
                if (!IsBase64(text))
                {
                    var standard = text.Replace('-', '+').Replace('_', '/');
                    standard = standard.PadRight(standard.Length + ((4 - (standard.Length % 4)) % 4), '=');
                    if (IsBase64(standard))
                    {
                        Base64Url = true;
                        text = standard;
                    }
                }

                writer.WriteStringValue(text);
            }
            else
            {
                var ordinary = field.FieldType == FieldType.Message && field.MessageType.File.Package != "google.protobuf";
                Element(value, ordinary ? field.MessageType : null);
            }
        }

        // JsonParser's lookup: JSON names, then proto names.
        private static FieldDescriptor? Field(MessageDescriptor message, string name) =>
            message.Fields.InDeclarationOrder().FirstOrDefault(f => f.JsonName == name) ?? message.FindFieldByName(name);

        // null is a value for these, not "unset".
        private static bool NullIsAValue(FieldDescriptor field) =>
            (field.FieldType == FieldType.Message && field.MessageType == Google.Protobuf.WellKnownTypes.Value.Descriptor)
            || (field.FieldType == FieldType.Enum && field.EnumType.FullName == "google.protobuf.NullValue");

        private static bool IsBase64(string text)
        {
            try
            {
                Convert.FromBase64String(text);
                return true;
            }
            catch (FormatException)
            {
                return false;
            }
        }
    }
}

using System.Buffers;
using System.Text;
using System.Text.Json;
using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// A request message as canonical protobuf JSON (docs/protocol.md section 4) with every field present at its default,
/// so the JSON editor starts from something that binds: nested messages expanded, one element in each repeated field,
/// one entry in each map, the first member of each oneof (two would fail the call), the well-known types in their text
/// forms.
/// </summary>
internal static class JsonSkeleton
{
    // Messages this deep (or recursive) are written as {}: a skeleton of a recursive type must end.
    private const int MaxDepth = 6;

    public static string Of(MessageDescriptor type)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Indented = true }))
        {
            WriteMessage(writer, type, [type.FullName]);
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static void WriteMessage(Utf8JsonWriter writer, MessageDescriptor type, List<string> path)
    {
        writer.WriteStartObject();
        var oneofsDone = new HashSet<OneofDescriptor>();
        foreach (var field in type.Fields.InDeclarationOrder())
        {
            if (field.RealContainingOneof is { } oneof && !oneofsDone.Add(oneof))
            {
                continue;
            }

            writer.WritePropertyName(field.JsonName);
            if (field.IsMap)
            {
                writer.WriteStartObject();
                writer.WritePropertyName(MapKey(field.MessageType.FindFieldByNumber(1)));
                WriteSingle(writer, field.MessageType.FindFieldByNumber(2), path);
                writer.WriteEndObject();
            }
            else if (field.IsRepeated)
            {
                writer.WriteStartArray();
                WriteSingle(writer, field, path);
                writer.WriteEndArray();
            }
            else
            {
                WriteSingle(writer, field, path);
            }
        }

        writer.WriteEndObject();
    }

    private static void WriteSingle(Utf8JsonWriter writer, FieldDescriptor field, List<string> path)
    {
        switch (field.FieldType)
        {
            case FieldType.Message or FieldType.Group:
                WriteMessageValue(writer, field.MessageType, path);
                break;
            case FieldType.Enum:
                writer.WriteStringValue(field.EnumType.Values[0].Name);
                break;
            case FieldType.Bool:
                writer.WriteBooleanValue(false);
                break;
            case FieldType.String or FieldType.Bytes:
                writer.WriteStringValue("");
                break;
            // 64-bit integers are strings in protobuf JSON: a JavaScript number would round them.
            case FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 or FieldType.UInt64 or FieldType.Fixed64:
                writer.WriteStringValue("0");
                break;
            default:
                writer.WriteNumberValue(0);
                break;
        }
    }

    private static void WriteMessageValue(Utf8JsonWriter writer, MessageDescriptor type, List<string> path)
    {
        switch (WellKnownTextKinds.Of(type))
        {
            case WellKnownTextKind.Timestamp:
                writer.WriteStringValue("1970-01-01T00:00:00Z");
                return;
            case WellKnownTextKind.Duration:
                writer.WriteStringValue("0s");
                return;
            case WellKnownTextKind.FieldMask:
                writer.WriteStringValue("");
                return;
            case WellKnownTextKind.Wrapper:
                WriteSingle(writer, type.FindFieldByNumber(1), path);
                return;
            case WellKnownTextKind.Json when type.FullName == "google.protobuf.Value":
                writer.WriteNullValue();
                return;
            case WellKnownTextKind.Json when type.FullName == "google.protobuf.ListValue":
                writer.WriteStartArray();
                writer.WriteEndArray();
                return;
        }

        if (path.Count >= MaxDepth || path.Contains(type.FullName) || WellKnownTextKinds.IsText(type))
        {
            writer.WriteStartObject();
            writer.WriteEndObject();
            return;
        }

        WriteMessage(writer, type, [.. path, type.FullName]);
    }

    private static string MapKey(FieldDescriptor key) => key.FieldType switch
    {
        FieldType.String => "key",
        FieldType.Bool => "false",
        _ => "0",
    };
}

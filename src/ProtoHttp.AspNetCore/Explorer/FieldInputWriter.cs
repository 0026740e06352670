using System.Globalization;
using System.Text;
using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The one HTML control that holds a value of a scalar, an enum or a well-known type carried as text, in the text
/// form FormBinder reads (docs/protocol.md section 4): numbers as decimal text, enums by name, bools as true/false,
/// bytes as base64, Timestamp as a date-time (read as UTC), Duration as <c>1.5s</c>, wrappers as the value they wrap.
/// </summary>
internal static class FieldInputWriter
{
    /// <summary>Writes the control for <paramref name="field"/> (or a map entry's key or value field) named <paramref name="name"/>.</summary>
    /// <param name="html">The page.</param>
    /// <param name="field">The field whose value the control holds.</param>
    /// <param name="name">The form key, exactly as FormBinder binds it.</param>
    /// <param name="id">The control's id, for its label; null for a row without one.</param>
    /// <param name="optionalChoice">Whether an unset bool needs its own choice (presence, rows), so a select, not a checkbox.</param>
    public static void Write(StringBuilder html, FieldDescriptor field, string name, string? id, bool optionalChoice)
    {
        var attributes = $" name=\"{Html.Encode(name)}\"" + (id is null ? "" : $" id=\"{Html.Encode(id)}\"") + (field.IsRequired ? " required" : "");
        WriteControl(html, field, attributes, optionalChoice);
    }

    private static void WriteControl(StringBuilder html, FieldDescriptor field, string attributes, bool optionalChoice)
    {
        if (field.FieldType == FieldType.Message)
        {
            WriteWellKnown(html, field.MessageType, attributes);
            return;
        }

        switch (field.FieldType)
        {
            case FieldType.Bool when optionalChoice:
                html.Append(CultureInfo.InvariantCulture, $"<select{attributes}><option value=\"\">–</option><option>true</option><option>false</option></select>");
                break;
            case FieldType.Bool:
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"checkbox\" value=\"true\"{attributes}>");
                break;
            case FieldType.Enum:
                html.Append(CultureInfo.InvariantCulture, $"<select{attributes}><option value=\"\">–</option>");
                foreach (var value in field.EnumType.Values)
                {
                    html.Append(CultureInfo.InvariantCulture, $"<option>{Html.Encode(value.Name)}</option>");
                }

                html.Append("</select>");
                break;
            case FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32:
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"number\" step=\"1\" min=\"{int.MinValue}\" max=\"{int.MaxValue}\"{attributes}>");
                break;
            case FieldType.UInt32 or FieldType.Fixed32:
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"number\" step=\"1\" min=\"0\" max=\"{uint.MaxValue}\"{attributes}>");
                break;
            case FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64:
                // A number input would round 64-bit values through a double; text keeps every digit.
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"text\" inputmode=\"numeric\" pattern=\"-?[0-9]+\" placeholder=\"-9000000000\"{attributes}>");
                break;
            case FieldType.UInt64 or FieldType.Fixed64:
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"text\" inputmode=\"numeric\" pattern=\"[0-9]+\" placeholder=\"9000000000\"{attributes}>");
                break;
            case FieldType.Float or FieldType.Double:
                // Text, not a number input: NaN, INF and -INF are values too.
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"text\" inputmode=\"decimal\" placeholder=\"1.5, NaN, INF\"{attributes}>");
                break;
            case FieldType.Bytes:
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"text\" placeholder=\"base64\"{attributes}>");
                break;
            default:
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"text\" data-text{attributes}>");
                break;
        }
    }

    private static void WriteWellKnown(StringBuilder html, MessageDescriptor type, string attributes)
    {
        switch (type.FullName)
        {
            case "google.protobuf.Timestamp":
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"datetime-local\" step=\"1\"{attributes}> <small>UTC</small>");
                break;
            case "google.protobuf.Duration":
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"text\" pattern=\"-?[0-9]+(\\.[0-9]+)?s\" placeholder=\"1.5s\"{attributes}>");
                break;
            case "google.protobuf.FieldMask":
                html.Append(CultureInfo.InvariantCulture, $"<input type=\"text\" placeholder=\"path.one,pathTwo\"{attributes}>");
                break;
            case "google.protobuf.Struct" or "google.protobuf.Value" or "google.protobuf.ListValue" or "google.protobuf.Empty":
                html.Append(CultureInfo.InvariantCulture, $"<textarea rows=\"2\" placeholder=\"JSON\"{attributes}></textarea>");
                break;
            default:
                // A wrapper: the control of the value it wraps; a wrapped bool can be unset, so it is a select.
                WriteControl(html, type.FindFieldByNumber(1), attributes, optionalChoice: true);
                break;
        }
    }
}

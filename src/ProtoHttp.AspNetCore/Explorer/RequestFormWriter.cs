using System.Globalization;
using System.Text;
using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The controls of a request message's form, named as FormBinder binds them (docs/protocol.md section 4): proto names,
/// dotted paths into nested messages (a fieldset each), <c>tag[]</c> rows for repeated scalars and
/// <c>labels[0].key</c>/<c>labels[0].value</c> rows for maps (a few empty rows, which bind nothing, and more with
/// JavaScript), a multiple select for repeated enums, and a fieldset per oneof. What a form cannot carry (repeated
/// messages, maps of messages) is named, not offered. A REST route's query leaves out what its path and body bind:
/// <paramref name="boundElsewhere"/> names those field paths (proto names, dotted).
/// </summary>
internal sealed class RequestFormWriter(StringBuilder html, ProtoComments comments, string idPrefix, Func<string, bool>? boundElsewhere = null)
{
    /// <summary>Empty rows a repeated field or a map starts with; JavaScript adds more.</summary>
    public const int Rows = 3;

    // Nested messages this deep are named rather than expanded: forms of recursive types must end.
    private const int MaxDepth = 4;

    private int _ids;

    /// <summary>Whether the form leaves a field out (a repeated message, a map of messages, one nested too deep), after <see cref="WriteFields(MessageDescriptor)"/>.</summary>
    public bool LeavesOut { get; private set; }

    public void WriteFields(MessageDescriptor type) => WriteFields(type, "", [type.FullName]);

    private void WriteFields(MessageDescriptor type, string prefix, List<string> path)
    {
        var oneofsDone = new HashSet<OneofDescriptor>();
        foreach (var field in type.Fields.InDeclarationOrder())
        {
            if (field.RealContainingOneof is not { } oneof)
            {
                WriteField(field, prefix, path);
            }
            else if (oneofsDone.Add(oneof))
            {
                html.Append(CultureInfo.InvariantCulture, $"<fieldset class=\"px-oneof\"><legend>one of <b>{Html.Encode(oneof.Name)}</b></legend>");
                html.Append("<p class=\"px-hint\">Fill in one of these; two make the call fail.</p>");
                foreach (var member in oneof.Fields)
                {
                    WriteField(member, prefix, path);
                }

                html.Append("</fieldset>");
            }
        }
    }

    private void WriteField(FieldDescriptor field, string prefix, List<string> path)
    {
        var name = prefix + field.Name;
        if (boundElsewhere?.Invoke(name) == true)
        {
            return;
        }

        var comment = comments.For(field.ContainingType.FullName + "." + field.Name);
        var isMessage = field.FieldType is FieldType.Message or FieldType.Group && !WellKnownTextKinds.IsText(field.MessageType);
        if (field.IsMap)
        {
            WriteMap(field, name, comment);
        }
        else if (isMessage)
        {
            WriteMessage(field, name, comment, path);
        }
        else if (field.IsRepeated && field.FieldType == FieldType.Enum)
        {
            var id = NextId();
            html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-field\">{Label(field, id)}<select multiple name=\"{Html.Encode(name)}\" id=\"{id}\">");
            foreach (var value in field.EnumType.Values)
            {
                html.Append(CultureInfo.InvariantCulture, $"<option>{Html.Encode(value.Name)}</option>");
            }

            html.Append(CultureInfo.InvariantCulture, $"</select>{Comment(comment)}</div>");
        }
        else if (field.IsRepeated)
        {
            html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-field\"><span class=\"px-label\">{Describe(field)}</span><div class=\"px-rows\" data-rows=\"{Html.Encode(name)}[]\">");
            for (var row = 0; row < Rows; row++)
            {
                html.Append("<div class=\"px-row\">");
                FieldInputWriter.Write(html, field, name + "[]", null, optionalChoice: true);
                html.Append("</div>");
            }

            html.Append(CultureInfo.InvariantCulture, $"</div>{Comment(comment)}</div>");
        }
        else
        {
            var id = NextId();
            html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-field\">{Label(field, id)}");
            FieldInputWriter.Write(html, field, name, id, optionalChoice: field.HasPresence);
            html.Append(CultureInfo.InvariantCulture, $"{Comment(comment)}</div>");
        }
    }

    private void WriteMessage(FieldDescriptor field, string name, string? comment, List<string> path)
    {
        var type = field.MessageType;
        string? notOffered = field.IsRepeated
            ? "a repeated message, which a form cannot carry: call with JSON or protobuf."
            : path.Count >= MaxDepth || path.Contains(type.FullName)
                ? "nested too deep (or recursive) for this form."
                : null;
        if (notOffered is not null)
        {
            LeavesOut = true;
            html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-field\"><span class=\"px-label\">{Describe(field)}</span><span class=\"px-hint\">{Html.Encode(notOffered)}</span></div>");
            return;
        }

        html.Append(CultureInfo.InvariantCulture, $"<fieldset class=\"px-message\"><legend>{Describe(field)}</legend>{Comment(comment)}");
        WriteFields(type, name + ".", [.. path, type.FullName]);
        html.Append("</fieldset>");
    }

    private void WriteMap(FieldDescriptor field, string name, string? comment)
    {
        var key = field.MessageType.FindFieldByNumber(1);
        var value = field.MessageType.FindFieldByNumber(2);
        if (value.FieldType == FieldType.Message && !WellKnownTextKinds.IsText(value.MessageType))
        {
            LeavesOut = true;
            html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-field\"><span class=\"px-label\">{Describe(field)}</span><span class=\"px-hint\">a map of messages, which a form cannot carry: call with JSON or protobuf.</span></div>");
            return;
        }

        html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-field\"><span class=\"px-label\">{Describe(field)}</span><div class=\"px-rows\" data-rows=\"{Html.Encode(name)}[]\">");
        for (var row = 0; row < Rows; row++)
        {
            html.Append("<div class=\"px-row\">");
            FieldInputWriter.Write(html, key, $"{name}[{row}].key", null, optionalChoice: true);
            html.Append(" → ");
            FieldInputWriter.Write(html, value, $"{name}[{row}].value", null, optionalChoice: true);
            html.Append("</div>");
        }

        html.Append(CultureInfo.InvariantCulture, $"</div>{Comment(comment)}</div>");
    }

    private string NextId() => $"{idPrefix}-{++_ids}";

    private static string Label(FieldDescriptor field, string id) => $"<label class=\"px-label\" for=\"{id}\">{Describe(field)}</label>";

    private static string Comment(string? comment) => comment is null ? "" : $"<small class=\"px-comment\">{Html.Encode(comment)}</small>";

    /// <summary>The field's name and its type as the .proto writes it: <c>tags</c> <i>repeated string</i>.</summary>
    private static string Describe(FieldDescriptor field) =>
        $"<code>{Html.Encode(field.Name)}</code> <i>{Html.Encode(ProtoTypeName.Of(field))}</i>";
}

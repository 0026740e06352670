using System.Globalization;
using System.Text;
using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The JSON editor of a request message: a textarea prefilled with <see cref="JsonSkeleton"/>, and beside it each
/// top-level field with its type and its comment from the .proto. Hidden until the script shows it (a form cannot
/// send JSON), so a page without JavaScript is as before.
/// </summary>
internal static class JsonEditorWriter
{
    public static void Write(StringBuilder html, MethodDescriptor method, ProtoComments comments)
    {
        var type = method.InputType;
        var skeleton = JsonSkeleton.Of(type);
        var rows = Math.Clamp(skeleton.Count(c => c == '\n') + 1, 3, 24);
        html.Append("<div class=\"px-editor\" hidden>")
            .Append(CultureInfo.InvariantCulture, $"<p class=\"px-hint\">{(method.IsClientStreaming ? "Each message sent" : "The request")}, <code>{Html.Encode(type.FullName)}</code>, as JSON:</p>")
            .Append("<div class=\"px-editor-body\">")
            .Append(CultureInfo.InvariantCulture, $"<textarea class=\"px-json\" spellcheck=\"false\" rows=\"{rows}\" aria-label=\"{Html.Encode(type.Name)} as JSON\">{Html.Encode(skeleton)}</textarea>")
            .Append("<dl class=\"px-fields\">");
        foreach (var field in type.Fields.InDeclarationOrder())
        {
            html.Append(CultureInfo.InvariantCulture, $"<dt><code>{Html.Encode(field.JsonName)}</code> <i>{Html.Encode(ProtoTypeName.Of(field))}</i></dt>");
            if (comments.For(type.FullName + "." + field.Name) is { } comment)
            {
                html.Append(CultureInfo.InvariantCulture, $"<dd>{Html.Encode(comment)}</dd>");
            }
        }

        html.Append("</dl></div><p class=\"px-json-error\" role=\"alert\" hidden></p></div>");
    }
}

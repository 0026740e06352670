using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// A form for each REST route of a method (a <c>google.api.http</c> binding, docs/rest.md), read from its
/// <see cref="RestRouteMetadata"/>: an input per path variable, the query's controls for every field neither the path
/// nor the body binds (named as the query binds them, docs/protocol.md section 14), and the body as JSON (raw text and
/// its content type for a <c>google.api.HttpBody</c>). The script puts the variables into the path and sends the rule's
/// verb. A GET rule without variables is a plain HTML GET form, which works without the script; every other rule needs
/// it (a form cannot fill a path, nor send PUT, PATCH, DELETE or JSON), and says so.
/// </summary>
internal sealed partial class RestFormWriter(StringBuilder html, ExplorerLinks links, ProtoComments comments)
{
    public void Write(ExplorerMethod method)
    {
        var index = 0;
        foreach (var (metadata, rest) in method.RestRoutes)
        {
            WriteRoute(method.Descriptor, metadata, rest, $"{MethodKinds.Anchor(method.Descriptor)}-rest-{++index}");
        }
    }

    private void WriteRoute(MethodDescriptor method, ProtoHttpMethodMetadata metadata, RestRouteMetadata rest, string id)
    {
        var input = method.InputType;
        var variables = Variables(rest.Template);
        var plain = rest.Verb == HttpMethods.Get && variables.Count == 0;
        var stream = metadata.Kind == MethodType.ServerStreaming;
        html.Append(CultureInfo.InvariantCulture, $"<section class=\"px-rest\" id=\"{Html.Encode(id)}\" data-verb=\"{Html.Encode(rest.Verb)}\" data-template=\"{Html.Encode(links.To(rest.Template))}\"")
            .Append(CultureInfo.InvariantCulture, $" data-kind=\"{MethodKinds.Code(metadata.Kind)}\" data-safe=\"{(rest.Verb == HttpMethods.Get && GetVerbPolicy.HasNoSideEffects(method) ? "true" : "false")}\"")
            .Append(CultureInfo.InvariantCulture, $" data-formats=\"{Html.Encode(stream ? "{}" : FilePageWriter.Formats(metadata.Codecs, metadata.ResponseMediaTypes))}\">")
            .Append(CultureInfo.InvariantCulture, $"<h4>REST <code>{Html.Encode(rest.Verb)} {Html.Encode(links.To(rest.Template))}</code></h4>")
            .Append(CultureInfo.InvariantCulture, $"<form class=\"px-rest-form\" method=\"{(plain ? "get" : "post")}\" action=\"{(plain ? Html.Encode(links.To(rest.Template)) : "")}\">");

        if (variables.Count > 0)
        {
            html.Append("<fieldset class=\"px-rest-path\"><legend>Path</legend>");
            foreach (var (fieldPath, segments) in variables)
            {
                var field = FieldAt(input, fieldPath);
                html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-field\"><label class=\"px-label\" for=\"{id}-{Html.Encode(fieldPath)}\"><code>{Html.Encode(fieldPath)}</code> <i>{Html.Encode(field is null ? "" : ProtoTypeName.Of(field))}</i></label>")
                    .Append(CultureInfo.InvariantCulture, $"<input type=\"text\" id=\"{id}-{Html.Encode(fieldPath)}\" data-path-variable=\"{Html.Encode(fieldPath)}\" required placeholder=\"{Html.Encode(segments ?? "*")}\"></div>");
            }

            html.Append("</fieldset>");
        }

        if (rest.Body != "*")
        {
            var query = new StringBuilder();
            var fields = new RequestFormWriter(query, comments, id, path => BoundElsewhere(path, rest));
            fields.WriteFields(input);
            if (query.Length > 0)
            {
                html.Append("<fieldset class=\"px-rest-query\"><legend>Query</legend>").Append(query).Append("</fieldset>");
            }
        }

        if (rest.Body.Length > 0)
        {
            WriteBody(input, rest.Body, id);
        }

        html.Append("<div class=\"px-actions\">")
            .Append(plain ? "<button type=\"submit\">Call</button>" : "<button type=\"submit\" disabled data-needs-script>Call</button>")
            .Append("</div></form>");
        if (!plain)
        {
            html.Append("<p class=\"px-hint px-noscript-hint\">")
                .Append(variables.Count > 0 ? "The page puts the path's variables into the URL with JavaScript" : "The page sends this verb and body with JavaScript")
                .Append(", which is off: call the route with curl or any HTTP client.</p>");
        }

        html.Append("</section>");
    }

    // The body as the rule names it: the whole request (body: "*"), or one field of it, as JSON; a google.api.HttpBody as raw text.
    private void WriteBody(MessageDescriptor input, string body, string id)
    {
        var field = body == "*" ? null : input.FindFieldByName(body);
        var type = field is { FieldType: FieldType.Message, IsRepeated: false } ? field.MessageType : field is null ? input : null;
        html.Append(CultureInfo.InvariantCulture, $"<div class=\"px-rest-body-field\"><label for=\"{id}-body\" class=\"px-hint\">Body: ")
            .Append(field is null ? $"the request <code>{Html.Encode(input.FullName)}</code>" : $"the field <code>{Html.Encode(field.Name)}</code> <i>{Html.Encode(ProtoTypeName.Of(field))}</i>");
        if (type?.FullName == HttpBodyType)
        {
            html.Append(CultureInfo.InvariantCulture, $", its bytes as they are</label><input type=\"text\" class=\"px-rest-content-type\" aria-label=\"Content-Type\" value=\"text/plain\">")
                .Append(CultureInfo.InvariantCulture, $"<textarea class=\"px-rest-body\" id=\"{id}-body\" data-raw rows=\"3\" spellcheck=\"false\"></textarea></div>");
            return;
        }

        var json = type is not null ? JsonSkeleton.Of(type) : FieldSkeleton(input, field!);
        var rows = Math.Clamp(json.Count(c => c == '\n') + 1, 2, 16);
        html.Append(", as JSON</label>")
            .Append(CultureInfo.InvariantCulture, $"<textarea class=\"px-json px-rest-body\" id=\"{id}-body\" rows=\"{rows}\" spellcheck=\"false\">{Html.Encode(json)}</textarea>")
            .Append("<p class=\"px-json-error\" role=\"alert\" hidden></p></div>");
    }

    /// <summary>The full name of <c>google.api.HttpBody</c>, whose bytes are the body as they are (docs/rest.md).</summary>
    private const string HttpBodyType = "google.api.HttpBody";

    // A scalar, repeated or map body field: its value in the request's skeleton.
    private static string FieldSkeleton(MessageDescriptor input, FieldDescriptor field)
    {
        using var document = JsonDocument.Parse(JsonSkeleton.Of(input));
        return document.RootElement.GetProperty(field.JsonName).GetRawText();
    }

    private static bool BoundElsewhere(string path, RestRouteMetadata rest) =>
        rest.BoundFields.Contains(path) || path == rest.Body;

    private static FieldDescriptor? FieldAt(MessageDescriptor? type, string path)
    {
        FieldDescriptor? field = null;
        foreach (var name in path.Split('.'))
        {
            field = type?.FindFieldByName(name);
            type = field is { FieldType: FieldType.Message } ? field.MessageType : null;
        }

        return field;
    }

    /// <summary>The template's variables in order: each one's field path and its segments (null for one segment, <c>{shelf}</c>).</summary>
    private static List<(string FieldPath, string? Segments)> Variables(string template) =>
        [.. TemplateVariable().Matches(template).Select(m => (m.Groups[1].Value, m.Groups[2].Success ? m.Groups[2].Value : null))];

    [GeneratedRegex(@"\{([^}=]+)(?:=([^}]*))?\}")]
    private static partial Regex TemplateVariable();
}

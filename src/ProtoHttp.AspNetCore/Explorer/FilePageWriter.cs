using System.Globalization;
using System.Text;
using System.Text.Json;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The explorer page of one .proto file: each service and method the user may call, with its comments, its other
/// routes, for each unary and server-streaming method a form that calls it without JavaScript, and for every method a
/// JSON editor the script shows. Client and bidirectional streams take more than one message, which no form sends:
/// without the script they are described; with it, the editor sends them over a WebSocket. Each REST route of a method
/// gets its own form (<see cref="RestFormWriter"/>).
/// </summary>
/// <param name="links">The addresses of the explorer's index, script and stylesheet, and of the app's routes.</param>
/// <param name="antiforgery">The antiforgery field's name and token for POST forms, when the app uses antiforgery.</param>
internal sealed class FilePageWriter(ExplorerLinks links, (string Name, string Token)? antiforgery)
{
    public string Write(FileDescriptor file, string filePath, IReadOnlyList<ExplorerMethod> methods, ProtoComments comments)
    {
        var html = new StringBuilder();
        var fileName = Path.GetFileName(file.Name);
        PageLayout.Open(html, fileName, links);
        html.Append(CultureInfo.InvariantCulture, $"<header><nav><a href=\"{Html.Encode(links.Index)}\">All services</a></nav>")
            .Append(CultureInfo.InvariantCulture, $"<h1>{Html.Encode(fileName)}</h1><p>")
            .Append(file.Package.Length > 0 ? $"package <code>{Html.Encode(file.Package)}</code> · " : "")
            .Append(CultureInfo.InvariantCulture, $"<a id=\"px-source\" href=\"{Html.Encode(links.To(filePath))}?format=text\">the .proto source</a></p></header><main>")
            .Append("<noscript><p class=\"px-note\">Without JavaScript each form still calls its method; the answer opens as a page.</p></noscript>");

        var forms = 0;
        foreach (var service in methods.GroupBy(m => m.Descriptor.Service))
        {
            html.Append(CultureInfo.InvariantCulture, $"<section class=\"px-service\" id=\"{Html.Encode(service.Key.Name)}\"><h2>service <code>{Html.Encode(service.Key.FullName)}</code></h2>");
            html.Append(Comment(comments.For(service.Key.FullName)));
            foreach (var method in service)
            {
                WriteMethod(html, method, comments, ++forms);
            }

            html.Append("</section>");
        }

        html.Append("</main>");
        PageLayout.Close(html);
        return html.ToString();
    }

    private void WriteMethod(StringBuilder html, ExplorerMethod method, ProtoComments comments, int number)
    {
        var descriptor = method.Descriptor;
        var metadata = method.Metadata;
        // What the route answers and reads is its endpoint's metadata; the explorer only picks GET for a method free of
        // side effects where the route answers GET, so an answer page can be bookmarked.
        var safe = GetVerbPolicy.HasNoSideEffects(descriptor);
        var useGet = safe && metadata.Verbs.Contains(HttpMethods.Get);
        var route = Html.Encode(links.To(method.Route));
        // The script reads the call from the article: one place for the form, the JSON editor and the streams.
        html.Append(CultureInfo.InvariantCulture, $"<article class=\"px-method\" id=\"{Html.Encode(MethodKinds.Anchor(descriptor))}\"")
            .Append(CultureInfo.InvariantCulture, $" data-route=\"{route}\" data-kind=\"{MethodKinds.Code(metadata.Kind)}\" data-safe=\"{(safe ? "true" : "false")}\"")
            .Append(CultureInfo.InvariantCulture, $" data-formats=\"{Html.Encode(Formats(metadata.Codecs, metadata.ResponseMediaTypes))}\" data-schema=\"{Html.Encode(links.To(method.FilePath))}\"")
            .Append(method.ConnectRoute is { } connect ? $" data-connect=\"{Html.Encode(links.To(connect))}\"" : "")
            .Append(links.Module is { } module ? $" data-module=\"{Html.Encode(module)}\">" : ">")
            .Append(CultureInfo.InvariantCulture, $"<h3><code>{Html.Encode(descriptor.Name)}</code> <span class=\"px-kind\">{MethodKinds.Of(metadata.Kind)}</span></h3>")
            .Append(CultureInfo.InvariantCulture, $"<pre class=\"px-decl\">{Html.Encode(MethodKinds.Declaration(descriptor))}</pre>")
            .Append(Comment(comments.For(descriptor.FullName)))
            .Append(CultureInfo.InvariantCulture, $"<p class=\"px-route\"><code>{(useGet ? "GET" : "POST")} {route}</code></p>");
        OtherRoutesWriter.Write(html, method, links);

        if (useGet || metadata.RequestMediaTypes.Contains(MediaTypes.Form, StringComparer.OrdinalIgnoreCase))
        {
            WriteForm(html, method, comments, number, useGet);
        }
        else
        {
            // A route that reads no form body (a client stream's, which takes many messages) gets no form: the types it
            // reads, said on the page itself, since it is served inside someone else's app, where a path into this
            // repository's docs means nothing. The script calls it over a WebSocket from the JSON editor.
            var bidirectional = metadata.Kind == MethodType.DuplexStreaming;
            html.Append("<p class=\"px-hint px-noscript-hint\">")
                .Append(metadata.Kind is MethodType.ClientStreaming or MethodType.DuplexStreaming ? "A client stream takes many messages, which a form cannot send. " : "A form cannot call this route. ")
                .Append("A Connect client calls it, or a POST to this route whose body is ")
                .AppendJoin(" or ", metadata.RequestMediaTypes.Select(type => $"<code>{Html.Encode(type)}</code>"))
                .Append(bidirectional ? ", over HTTP/2 (a bidirectional call answers 505 over HTTP/1.1).</p>" : ".</p>");
        }

        JsonEditorWriter.Write(html, descriptor, comments);
        new RestFormWriter(html, links, comments).Write(method);
        html.Append("</article>");
    }

    private void WriteForm(StringBuilder html, ExplorerMethod method, ProtoComments comments, int number, bool useGet)
    {
        var metadata = method.Metadata;
        var route = Html.Encode(links.To(method.Route));
        html.Append(CultureInfo.InvariantCulture, $"<form class=\"px-form\" method=\"{(useGet ? "get" : "post")}\" action=\"{route}\" enctype=\"{MediaTypes.Form}\">");
        if (!useGet && antiforgery is var (name, token))
        {
            html.Append(CultureInfo.InvariantCulture, $"<input type=\"hidden\" name=\"{Html.Encode(name)}\" value=\"{Html.Encode(token)}\">");
        }

        html.Append(CultureInfo.InvariantCulture, $"<p class=\"px-hint\">Request <code>{Html.Encode(method.Descriptor.InputType.FullName)}</code></p>");
        var fields = new RequestFormWriter(html, comments, $"f{number}");
        fields.WriteFields(method.Descriptor.InputType);
        // A form that leaves a field out is not the script's first choice: the JSON editor carries every field.
        html.Append(fields.LeavesOut ? "<div class=\"px-actions\" data-leaves-out=\"true\">" : "<div class=\"px-actions\">")
            .Append("<button type=\"submit\">Call</button>");
        if (metadata.Kind == MethodType.Unary)
        {
            // A page shows text: each suffix route that answers in a text codec gets a button.
            foreach (var suffixRoute in method.SuffixRoutes)
            {
                if (suffixRoute.ResponseMediaTypes is [var type] && metadata.Codecs.MatchContentType(type).Codec is { IsText: true } codec)
                {
                    html.Append(CultureInfo.InvariantCulture,
                        $" <button type=\"submit\" formaction=\"{route}{Html.Encode(suffixRoute.FormatSuffix)}\" class=\"px-noscript\">Call, answer in {Html.Encode(Label(codec))}</button>");
                }
            }
        }

        html.Append("</div></form>");
    }

    /// <summary>
    /// The answer formats the script offers, label to media type as JSON, JSON first as the default: each codec's
    /// canonical type among the types the route answers in.
    /// </summary>
    internal static string Formats(MessageCodecs codecs, IReadOnlyList<string> answers)
    {
        var json = codecs.Codec(CodecNames.Json);
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            foreach (var codec in codecs.All.Where(codec => answers.Contains(codec.MediaTypes[0], StringComparer.OrdinalIgnoreCase)).OrderBy(codec => codec == json ? 0 : 1))
            {
                writer.WriteString(Label(codec), codec.MediaTypes[0]);
            }

            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static string Label(MessageCodec codec) => codec == MessageCodecs.Protobuf ? "protobuf" : codec.Name.ToUpperInvariant();

    private static string Comment(string? comment) => comment is null ? "" : $"<p class=\"px-comment\">{Html.Encode(comment)}</p>";
}

using System.Globalization;
using System.Text;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The explorer's index: every .proto file with the services and methods the user may call, linking to each file's
/// page where the file is served (<paramref name="servedFiles"/>).
/// </summary>
internal sealed class IndexPageWriter(ExplorerLinks links, IReadOnlySet<string> servedFiles)
{
    public string Write(IReadOnlyList<ExplorerMethod> methods, Func<ExplorerMethod, ProtoComments> comments)
    {
        var html = new StringBuilder();
        PageLayout.Open(html, "ProtoHttp services", links);
        html.Append("<header><h1>ProtoHttp services</h1></header><main>");
        if (methods.Count == 0)
        {
            html.Append("<p class=\"px-note\">No service is mapped that you may call.</p>");
        }

        foreach (var file in methods.GroupBy(m => m.FilePath))
        {
            var path = Html.Encode(links.To(file.Key));
            var served = servedFiles.Contains(file.Key);
            var fileComments = comments(file.First());
            var fileName = Html.Encode(Path.GetFileName(file.First().Descriptor.File.Name));
            html.Append(served
                ? $"<section class=\"px-file\"><h2><a href=\"{path}\">{fileName}</a></h2>"
                : $"<section class=\"px-file\"><h2>{fileName}</h2><p class=\"px-hint\">Its page is off with its .proto (ServeProtoFile = false).</p>");
            foreach (var service in file.GroupBy(m => m.Descriptor.Service))
            {
                html.Append(CultureInfo.InvariantCulture, $"<h3>service <code>{Html.Encode(service.Key.FullName)}</code></h3>");
                if (fileComments.For(service.Key.FullName) is { } serviceComment)
                {
                    html.Append(CultureInfo.InvariantCulture, $"<p class=\"px-comment\">{Html.Encode(serviceComment)}</p>");
                }

                html.Append("<ul class=\"px-methods\">");
                foreach (var method in service)
                {
                    var name = $"<code>{Html.Encode(method.Descriptor.Name)}</code>";
                    html.Append(served ? $"<li><a href=\"{path}#{Html.Encode(MethodKinds.Anchor(method.Descriptor))}\">{name}</a>" : $"<li>{name}")
                        .Append(CultureInfo.InvariantCulture, $" <span class=\"px-kind\">{MethodKinds.Of(method.Metadata.Kind)}</span>");
                    if (fileComments.For(method.Descriptor.FullName) is { } comment)
                    {
                        html.Append(CultureInfo.InvariantCulture, $" <span class=\"px-comment\">{Html.Encode(comment.Split('\n')[0])}</span>");
                    }

                    html.Append("</li>");
                }

                html.Append("</ul>");
            }

            html.Append("</section>");
        }

        html.Append("</main>");
        PageLayout.Close(html);
        return html.ToString();
    }
}

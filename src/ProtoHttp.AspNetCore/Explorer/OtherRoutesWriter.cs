using System.Globalization;
using System.Text;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// The method's described endpoints in other protocols (Connect's procedure path, a REST route), each as its
/// protocol, verbs and route read from its <see cref="ProtoHttpMethodMetadata"/>: a protocol added later shows up here
/// without the explorer knowing it.
/// </summary>
internal static class OtherRoutesWriter
{
    public static void Write(StringBuilder html, ExplorerMethod method, ExplorerLinks links)
    {
        if (method.OtherRoutes.Count == 0)
        {
            return;
        }

        html.Append("<details class=\"px-other-routes\"><summary>Also at</summary><ul>");
        foreach (var (metadata, route) in method.OtherRoutes)
        {
            html.Append(CultureInfo.InvariantCulture, $"<li><span class=\"px-protocol\">{Html.Encode(metadata.Protocol.ToString())}</span> ")
                .Append(CultureInfo.InvariantCulture, $"<code>{Html.Encode(string.Join("|", metadata.Verbs))} {Html.Encode(links.To(route))}</code>")
                .Append(CultureInfo.InvariantCulture, $" <small>{Html.Encode(string.Join(", ", metadata.RequestMediaTypes))}</small></li>");
        }

        html.Append("</ul></details>");
    }
}

using System.Text.Encodings.Web;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// Encodes text for the explorer's pages. Everything that comes from descriptors, comments, routes or the request
/// goes through here, in element text and in (always double-quoted) attribute values alike.
/// </summary>
internal static class Html
{
    public static string Encode(string? text) => HtmlEncoder.Default.Encode(text ?? "");
}

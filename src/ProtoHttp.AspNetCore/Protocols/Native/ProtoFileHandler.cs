using System.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Net.Http.Headers;
using ProtoHttp.AspNetCore.Caching;
using ProtoHttp.AspNetCore.Explorer;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>
/// Serves the service's <c>.proto</c> source, byte for byte as written, at <c>GET /{file}.proto</c>; to a client that
/// asks for protobuf or JSON by <c>Accept</c>, the file's <see cref="DescriptorSet"/>; and, where the explorer is
/// mapped, to a browser (text/html preferred over text/plain), the file's explorer page. <c>?format=text</c> asks for
/// the source whatever the <c>Accept</c>, for a link. The source and descriptor set carry an <c>ETag</c>, so a client
/// holding them gets a <c>304</c>.
/// </summary>
internal sealed class ProtoFileHandler(
    byte[] source, Google.Protobuf.Reflection.FileDescriptor file, MessageCodecs codecs, ExplorerPages explorer, ConditionalGet conditionalGet, ILogger logger)
{
    private const string AllowedVerbs = "GET, HEAD";
    private const string ProtoSourceType = "text/plain; charset=utf-8";

    private enum View
    {
        Source,
        Protobuf,
        Json,
        Page,
    }

    private readonly Lazy<DescriptorSet> _descriptors = new(() => DescriptorSet.For(file));

    /// <summary>
    /// Finds the file's text among the embedded resources of the service's assemblies. Descriptors drop comments
    /// and layout, so the source itself must travel with the application.
    /// </summary>
    /// <exception cref="InvalidOperationException">The .proto is not embedded; the message says how to embed it.</exception>
    public static byte[] Load(string fileName, params Assembly[] assemblies) =>
        ProtoSourceResource.TryLoad(fileName, assemblies)
        ?? throw new InvalidOperationException(
            $"ProtoHttp serves {fileName} at GET /{fileName}, but it is not embedded in {assemblies[0].GetName().Name}. " +
            $"Add <EmbeddedResource Include=\"path/to/{fileName}\" LogicalName=\"{fileName}\" /> to the project, " +
            "or set ProtoHttpOptions.ServeProtoFile = false.");

    public async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        var response = context.Response;
        var isHead = HttpMethods.IsHead(request.Method);
        if (!isHead && !HttpMethods.IsGet(request.Method))
        {
            await CallErrors.RefuseAsync(context, CallRejectedException.MethodNotAllowed(request.Method, AllowedVerbs), request.Path, logger, NativeProtocol.Instance, codecs);
            return;
        }

        response.Headers.Vary = HeaderNames.Accept;
        response.Headers[HeaderNames.XContentTypeOptions] = "nosniff";
        var view = request.Query["format"] == "text" ? View.Source : Preferred(request.Headers.Accept);
        if (view == View.Page && explorer.IsMapped)
        {
            await explorer.WriteFileAsync(context, file, source, logger);
            return;
        }

        var (body, type) = view switch
        {
            View.Protobuf => (_descriptors.Value.Protobuf, codecs.Canonical(CodecNames.Protobuf).ContentType),
            View.Json => (_descriptors.Value.Json, codecs.Canonical(CodecNames.Json).ContentType),
            _ => (source, ProtoSourceType),
        };
        if (conditionalGet.NotModified(context, type, body))
        {
            return;
        }

        response.ContentType = type;
        response.ContentLength = body.Length;
        if (!isHead)
        {
            await response.Body.WriteAsync(body);
        }
    }

    /// <summary>
    /// What the most preferred media type the client names outright (not a wildcard) stands for: protobuf or JSON for
    /// the descriptor set; text/html for the page, when the client weighs it above text/plain (browsers do, through
    /// <c>*/*;q=0.8</c>); anything else, and <c>*/*</c> alone as curl sends, for the source text.
    /// </summary>
    private View Preferred(Microsoft.Extensions.Primitives.StringValues accept)
    {
        if (!MediaTypeHeaderValue.TryParseList(accept, out var ranges))
        {
            return View.Source;
        }

        var best = ranges
            .Where(range => !range.MatchesAllTypes && !range.MatchesAllSubTypes && (range.Quality ?? 1) > 0)
            .OrderByDescending(range => range.Quality ?? 1)
            .FirstOrDefault();
        if (best is null)
        {
            return View.Source;
        }

        if (best.MediaType.Equals("text/html", StringComparison.OrdinalIgnoreCase))
        {
            return (best.Quality ?? 1) > QualityOf("text/plain", ranges) ? View.Page : View.Source;
        }

        // The descriptor set is itself a message, served in the two codecs every tool reads.
        var match = codecs.MatchContentType(best.MediaType.ToString());
        return match.Status != ContentTypeStatus.Readable ? View.Source
            : match.Codec == MessageCodecs.Protobuf ? View.Protobuf
            : match.Codec == codecs.Codec(CodecNames.Json) ? View.Json
            : View.Source;
    }

    /// <summary>The weight the most specific range matching <paramref name="mediaType"/> gives it, or 0 when none does.</summary>
    private static double QualityOf(string mediaType, IList<MediaTypeHeaderValue> ranges)
    {
        var candidate = new MediaTypeHeaderValue(mediaType);
        return ranges
            .Where(candidate.IsSubsetOf)
            .OrderByDescending(range => range.MatchesAllTypes ? 0 : range.MatchesAllSubTypes ? 1 : 2)
            .Select(range => range.Quality ?? 1)
            .FirstOrDefault();
    }
}

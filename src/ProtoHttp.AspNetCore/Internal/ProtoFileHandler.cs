using System.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Net.Http.Headers;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Serves the service's <c>.proto</c> source, byte for byte as written, at <c>GET /{file}.proto</c>; or, to a client
/// that asks for protobuf or JSON by <c>Accept</c>, the file's <see cref="DescriptorSet"/>.
/// </summary>
internal sealed class ProtoFileHandler(byte[] source, Google.Protobuf.Reflection.FileDescriptor file, MessageCodecs codecs, ILogger logger)
{
    private const string AllowedVerbs = "GET, HEAD";
    private const string ProtoSourceType = "text/plain; charset=utf-8";

    private readonly Lazy<DescriptorSet> _descriptors = new(() => DescriptorSet.For(file));

    /// <summary>
    /// Finds the file's text among the embedded resources of the service's assemblies. Descriptors drop comments
    /// and layout, so the source itself must travel with the application.
    /// </summary>
    /// <exception cref="InvalidOperationException">The .proto is not embedded; the message says how to embed it.</exception>
    public static byte[] Load(string fileName, params Assembly[] assemblies) =>
        TryLoad(fileName, assemblies)
        ?? throw new InvalidOperationException(
            $"ProtoHttp serves {fileName} at GET /{fileName}, but it is not embedded in {assemblies[0].GetName().Name}. " +
            $"Add <EmbeddedResource Include=\"path/to/{fileName}\" LogicalName=\"{fileName}\" /> to the project, " +
            "or set ProtoHttpOptions.ServeProtoFile = false.");

    /// <summary>The file's text from the first of <paramref name="assemblies"/> that embeds it, or null when none does.</summary>
    public static byte[]? TryLoad(string fileName, params Assembly[] assemblies)
    {
        foreach (var assembly in assemblies.Distinct())
        {
            var resource = assembly.GetManifestResourceNames()
                .FirstOrDefault(name => name == fileName || name.EndsWith("." + fileName, StringComparison.Ordinal));
            if (resource is null)
            {
                continue;
            }

            using var stream = assembly.GetManifestResourceStream(resource)!;
            using var copy = new MemoryStream();
            stream.CopyTo(copy);
            return copy.ToArray();
        }

        return null;
    }

    public async Task HandleAsync(HttpContext context)
    {
        var request = context.Request;
        var response = context.Response;
        var isHead = HttpMethods.IsHead(request.Method);
        if (!isHead && !HttpMethods.IsGet(request.Method))
        {
            var failure = new CallFailureInfo(request.Path, logger, codecs, DetailedErrors: false, MaxRequestBodySize: 0, ErrorType: null);
            await CallErrors.HandleAsync(context, CallRejectedException.MethodNotAllowed(request.Method, AllowedVerbs), failure);
            return;
        }

        response.Headers.Vary = HeaderNames.Accept;
        response.Headers[HeaderNames.XContentTypeOptions] = "nosniff";
        var (body, type) = Preferred(request.Headers.Accept) switch
        {
            MessageFormat.Protobuf => (_descriptors.Value.Protobuf, MediaTypes.Protobuf),
            MessageFormat.Json => (_descriptors.Value.Json, MediaTypes.Canonical(MessageFormat.Json).ContentType),
            _ => (source, ProtoSourceType),
        };
        response.ContentType = type;
        response.ContentLength = body.Length;
        if (!isHead)
        {
            await response.Body.WriteAsync(body);
        }
    }

    /// <summary>
    /// The format the most preferred media type the client names outright (not a wildcard) stands for: protobuf or
    /// JSON for the descriptor set, anything else (and <c>*/*</c> alone, as curl sends) for the source text.
    /// </summary>
    private static MessageFormat? Preferred(Microsoft.Extensions.Primitives.StringValues accept)
    {
        if (!MediaTypeHeaderValue.TryParseList(accept, out var ranges))
        {
            return null;
        }

        var best = ranges
            .Where(range => !range.MatchesAllTypes && !range.MatchesAllSubTypes && (range.Quality ?? 1) > 0)
            .OrderByDescending(range => range.Quality ?? 1)
            .FirstOrDefault();
        if (best is null)
        {
            return null;
        }

        var match = MediaTypes.MatchContentType(best.MediaType.ToString());
        return match.Status == ContentTypeStatus.Readable && match.Format is MessageFormat.Protobuf or MessageFormat.Json ? match.Format : null;
    }
}

using System.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Net.Http.Headers;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Serves the service's <c>.proto</c> source, byte for byte as written, at <c>GET /{file}.proto</c>.</summary>
internal sealed class ProtoFileHandler(byte[] source, MessageCodecs codecs, ILogger logger)
{
    private const string AllowedVerbs = "GET, HEAD";

    /// <summary>
    /// Finds the file's text among the embedded resources of the service's assemblies. Descriptors drop comments
    /// and layout, so the source itself must travel with the application.
    /// </summary>
    /// <exception cref="InvalidOperationException">The .proto is not embedded; the message says how to embed it.</exception>
    public static byte[] Load(string fileName, params Assembly[] assemblies)
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

        throw new InvalidOperationException(
            $"ProtoHttp serves {fileName} at GET /{fileName}, but it is not embedded in {assemblies[0].GetName().Name}. " +
            $"Add <EmbeddedResource Include=\"path/to/{fileName}\" LogicalName=\"{fileName}\" /> to the project, " +
            "or set ProtoHttpOptions.ServeProtoFile = false.");
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

        response.ContentType = MediaTypes.ProtoSource;
        response.ContentLength = source.Length;
        response.Headers[HeaderNames.XContentTypeOptions] = "nosniff";
        if (!isHead)
        {
            await response.Body.WriteAsync(source);
        }
    }
}

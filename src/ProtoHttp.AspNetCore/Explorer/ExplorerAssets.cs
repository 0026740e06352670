using System.Security.Cryptography;
using Microsoft.AspNetCore.Http;
using Microsoft.Net.Http.Headers;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// One of the explorer's scripts (ES modules, one concern each, loaded from <c>explorer.js</c>) or its stylesheet,
/// embedded in this assembly: served with an ETag, so a browser revalidates instead of downloading it again, and with
/// nothing fetched from anywhere else.
/// </summary>
internal sealed class ExplorerAssets
{
    private readonly byte[] _body;
    private readonly string _contentType;
    private readonly string _etag;

    private ExplorerAssets(byte[] body, string contentType)
    {
        _body = body;
        _contentType = contentType;
        _etag = "\"" + Convert.ToHexStringLower(SHA256.HashData(body).AsSpan(0, 8)) + "\"";
    }

    /// <summary>Every asset by its file name, which is its path under the explorer's index.</summary>
    public static readonly IReadOnlyDictionary<string, ExplorerAssets> All = new[]
    {
        "explorer.js", "explorer-dom.js", "explorer-request.js", "explorer-answer.js", "explorer-commands.js", "explorer-socket.js", "explorer-rest.js", "explorer.css",
    }.ToDictionary(name => name, name => Load(name, name.EndsWith(".css", StringComparison.Ordinal) ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"));

    public async Task HandleAsync(HttpContext context)
    {
        var response = context.Response;
        response.Headers.ETag = _etag;
        response.Headers.CacheControl = "public, no-cache";
        response.Headers[HeaderNames.XContentTypeOptions] = "nosniff";
        if (context.Request.Headers.IfNoneMatch == _etag)
        {
            response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }

        response.ContentType = _contentType;
        response.ContentLength = _body.Length;
        if (!HttpMethods.IsHead(context.Request.Method))
        {
            await response.Body.WriteAsync(_body);
        }
    }

    /// <summary>A file embedded in this assembly under <paramref name="logicalName"/>, served the same way (the WebSocket protocol's browser module).</summary>
    public static ExplorerAssets FromResource(string logicalName, string contentType)
    {
        using var stream = typeof(ExplorerAssets).Assembly.GetManifestResourceStream(logicalName)
            ?? throw new InvalidOperationException($"{logicalName} is missing from {typeof(ExplorerAssets).Assembly.GetName().Name}.");
        using var copy = new MemoryStream();
        stream.CopyTo(copy);
        return new ExplorerAssets(copy.ToArray(), contentType);
    }

    private static ExplorerAssets Load(string name, string contentType) => FromResource("ProtoHttp.Explorer." + name, contentType);
}

using System.Collections.Concurrent;
using System.Text;
using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.OutputCaching;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Net.Http.Headers;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// Writes the explorer's pages once <c>MapProtoHttpExplorer()</c> has mapped it: the index, and each file's page that
/// <c>GET /{file}.proto</c> answers a browser with. Both show only the methods the user may call, read from the
/// application's endpoints on each request; a file page none of whose methods the user may call answers as those
/// methods would (a challenge or a 403).
/// </summary>
internal sealed class ExplorerPages
{
    private readonly ConcurrentDictionary<FileDescriptor, ProtoComments> _comments = new();

    // Set by MarkMapped, the one reference to the page writers: an app that never maps the explorer (under Native AOT)
    // has none of their code compiled in, only this class's empty shell that AddProtoHttp registers.
    private Func<HttpContext, FileDescriptor, byte[], ILogger, Task>? _writeFile;

    /// <summary>Whether the explorer is mapped; until it is, .proto files answer only with text and descriptors.</summary>
    public bool IsMapped => _writeFile is not null;

    /// <exception cref="InvalidOperationException">The explorer is already mapped.</exception>
    public void MarkMapped()
    {
        if (IsMapped)
        {
            throw new InvalidOperationException("MapProtoHttpExplorer has been called already; map the explorer once.");
        }

        _writeFile = WriteMappedFileAsync;
    }

    /// <summary>Writes the page of the .proto file at the request's path: the methods of <paramref name="file"/> mapped under it.</summary>
    /// <exception cref="InvalidOperationException">The explorer is not mapped (<see cref="IsMapped"/>).</exception>
    public Task WriteFileAsync(HttpContext context, FileDescriptor file, byte[] source, ILogger logger) =>
        (_writeFile ?? throw new InvalidOperationException("The explorer is not mapped: call MapProtoHttpExplorer first."))(context, file, source, logger);

    private async Task WriteMappedFileAsync(HttpContext context, FileDescriptor file, byte[] source, ILogger logger)
    {
        var endpoints = context.RequestServices.GetRequiredService<EndpointDataSource>();
        var filePath = context.Request.Path.Value!.TrimEnd('/');
        var methods = ExplorerMethod.All(endpoints)
            .Where(m => m.Descriptor.File == file && string.Equals(m.FilePath, filePath, StringComparison.OrdinalIgnoreCase))
            .ToList();
        var access = new ExplorerAccess(context);
        var allowed = await AllowedAsync(access, methods);
        if (allowed.Count == 0 && access.Refusal is not null)
        {
            ExplorerLog.PageRefused(logger, filePath, methods.Count);
            await access.RefuseAsync();
            return;
        }

        ExplorerLog.PageServed(logger, filePath, allowed.Count, methods.Count);

        var comments = _comments.GetOrAdd(file, _ => Parse(source));
        var sourcePath = allowed.Count > 0 ? allowed[0].FilePath : filePath;
        var page = new FilePageWriter(ExplorerLinks.For(context, endpoints), AntiforgeryField(context)).Write(file, sourcePath, allowed, comments);
        await WriteAsync(context, page);
    }

    public async Task WriteIndexAsync(HttpContext context)
    {
        var endpoints = context.RequestServices.GetRequiredService<EndpointDataSource>();
        var allowed = await AllowedAsync(new ExplorerAccess(context), ExplorerMethod.All(endpoints));
        var page = new IndexPageWriter(ExplorerLinks.For(context, endpoints), ExplorerMethod.FilePaths(endpoints)).Write(
            allowed, method => _comments.GetOrAdd(method.Descriptor.File, _ => Parse(method.Metadata.ProtoSource)));
        await WriteAsync(context, page);
    }

    private static async Task<List<ExplorerMethod>> AllowedAsync(ExplorerAccess access, IEnumerable<ExplorerMethod> methods)
    {
        var allowed = new List<ExplorerMethod>();
        foreach (var method in methods)
        {
            if (await access.AllowsAsync(method.Endpoint))
            {
                allowed.Add(method);
            }
        }

        return allowed;
    }

    private static ProtoComments Parse(ReadOnlyMemory<byte> source)
    {
        var comments = new ProtoComments();
        if (!source.IsEmpty)
        {
            comments.Add(Encoding.UTF8.GetString(source.Span));
        }

        return comments;
    }

    // POST forms carry the token where the app uses antiforgery, as its own forms would.
    private static (string Name, string Token)? AntiforgeryField(HttpContext context) =>
        context.RequestServices.GetService<IAntiforgery>()?.GetAndStoreTokens(context) is { RequestToken: { } token } tokens
            ? (tokens.FormFieldName, token)
            : null;

    private static async Task WriteAsync(HttpContext context, string page)
    {
        var body = Encoding.UTF8.GetBytes(page);
        var response = context.Response;
        response.ContentType = "text/html; charset=utf-8";
        response.ContentLength = body.Length;
        // The page depends on who asks (the methods they may call, their antiforgery token): no shared cache keeps
        // it, the app's output cache included, whatever policy the app set.
        response.Headers.CacheControl = "private, no-cache";
        if (context.Features.Get<IOutputCacheFeature>() is { } outputCache)
        {
            outputCache.Context.AllowCacheStorage = false;
        }

        response.Headers.ContentSecurityPolicy = PageLayout.SecurityPolicy;
        response.Headers[HeaderNames.XContentTypeOptions] = "nosniff";
        if (!HttpMethods.IsHead(context.Request.Method))
        {
            await response.Body.WriteAsync(body);
        }
    }
}

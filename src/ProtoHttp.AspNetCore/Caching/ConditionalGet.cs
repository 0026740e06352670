using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;
using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Http;
using Microsoft.Net.Http.Headers;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Caching;

/// <summary>
/// Conditional GETs (docs/protocol.md section 11) for answers that are the same for the same request: GETs of methods
/// the .proto declares free of side effects, on ProtoHttp's routes and Connect's, and the <c>.proto</c> and descriptor
/// set. The answer gets a strong <c>ETag</c> computed from its media type and bytes, so any instance serving the same
/// answer gives the same tag, and the <c>Cache-Control</c> the app chose; a request whose <c>If-None-Match</c> names
/// the tag is answered <c>304</c> without a body. The service still runs: the tag is of what it answered, which is what
/// lets a stale copy be told from a fresh one without the app declaring versions.
/// </summary>
internal sealed class ConditionalGet(string? cacheControl)
{
    // 128 bits of SHA-256: a collision between two answers of one URL is out of reach, and the tag stays short.
    private const int TagBytes = 16;

    /// <summary>The one for <paramref name="method"/>'s GET answers; <see langword="null"/> when the method has side effects.</summary>
    public static ConditionalGet? For(MethodDescriptor method, ProtoHttpOptions options) =>
        GetVerbPolicy.HasNoSideEffects(method)
            ? new(options.MethodCacheControl.TryGetValue(method.Name, out var own) ? own : options.CacheControl)
            : null;

    /// <summary>Checks at startup that each of <see cref="ProtoHttpOptions.MethodCacheControl"/>'s names is a method of the service without side effects.</summary>
    /// <exception cref="InvalidOperationException">One is not; the message says which and why.</exception>
    public static void CheckOptions(ServiceDescriptor service, ProtoHttpOptions options)
    {
        foreach (var name in options.MethodCacheControl.Keys)
        {
            var method = service.FindMethodByName(name)
                ?? throw new InvalidOperationException(
                    $"ProtoHttpOptions.MethodCacheControl names '{name}', which is not a method of {service.FullName}; use the method's name as in the .proto.");
            if (!GetVerbPolicy.HasNoSideEffects(method))
            {
                throw new InvalidOperationException(
                    $"ProtoHttpOptions.MethodCacheControl names {service.FullName}.{name}, whose answers are never cacheable: only methods marked " +
                    "option idempotency_level = NO_SIDE_EFFECTS; carry an ETag and Cache-Control.");
            }
        }
    }

    /// <summary>
    /// Marks the answer about to be written with its <c>ETag</c> and <c>Cache-Control</c>; when the request's
    /// <c>If-None-Match</c> matches, sets <c>304</c> and returns <see langword="true"/>: then the caller writes no body.
    /// </summary>
    public bool NotModified(HttpContext context, string contentType, ReadOnlySpan<byte> body)
    {
        var tag = Tag(contentType, body);
        var headers = context.Response.Headers;
        headers.ETag = tag;
        if (cacheControl is not null)
        {
            headers.CacheControl = cacheControl;
        }

        if (!Matches(context.Request.Headers.IfNoneMatch, tag))
        {
            return false;
        }

        context.Response.StatusCode = StatusCodes.Status304NotModified;
        return true;
    }

    private static string Tag(string contentType, ReadOnlySpan<byte> body)
    {
        // The media type is part of the tag: two representations with the same bytes are still two representations.
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        hash.AppendData(Encoding.UTF8.GetBytes(contentType));
        hash.AppendData(body);
        Span<byte> digest = stackalloc byte[32];
        hash.GetHashAndReset(digest);
        return $"\"{Base64Url.EncodeToString(digest[..TagBytes])}\"";
    }

    /// <summary>RFC 9110's If-None-Match: <c>*</c>, or a list of tags compared weakly (a <c>W/</c> copy of the tag matches).</summary>
    private static bool Matches(Microsoft.Extensions.Primitives.StringValues ifNoneMatch, string tag)
    {
        if (ifNoneMatch.Count == 0 || !EntityTagHeaderValue.TryParseList(ifNoneMatch, out var tags))
        {
            return false;
        }

        var ours = new EntityTagHeaderValue(tag);
        return tags.Any(candidate => candidate.Equals(EntityTagHeaderValue.Any) || candidate.Compare(ours, useStrongComparison: false));
    }
}

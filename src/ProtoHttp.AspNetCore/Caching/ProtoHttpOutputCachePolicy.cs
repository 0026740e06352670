using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.OutputCaching;
using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;

namespace ProtoHttp.AspNetCore.Caching;

/// <summary>
/// ProtoHttp's rules for ASP.NET Core's output cache (docs/protocol.md section 11), so that <c>.CacheOutput()</c> or a
/// base policy caches ProtoHttp's answers right without the app knowing what selects them. The output cache keys
/// entries by path and query only and ignores <c>Vary</c>: it would hand a JSON answer to a client that asked for
/// protobuf, and a live stream to every later subscriber, replayed. So every ProtoHttp endpoint carries this policy
/// as its own, added last, running after the base policies and the app's endpoint policy (which it wraps): where they
/// turned caching on, it adds the request headers that choose the answer to the key, and turns caching off for
/// streaming methods, which must be neither stored, nor looked up, nor made to wait for another caller's stream as the
/// cache's request coalescing would. Explorer pages turn storage off themselves (<see cref="Explorer.ExplorerPages"/>).
/// </summary>
internal sealed class ProtoHttpOutputCachePolicy(IOutputCachePolicy? appPolicy, bool streaming) : IOutputCachePolicy
{
    // Accept chooses the format; Accept-Encoding whether a Connect GET answer is gzipped (and a compression middleware
    // between the cache and ProtoHttp compresses by it). The path (with its suffix) and the query are in every key.
    private static readonly StringValues SelectingHeaders = new([HeaderNames.Accept, HeaderNames.AcceptEncoding]);

    /// <summary>Makes this the endpoint's output-cache policy, wrapping the one the app gave it, once all conventions ran.</summary>
    public static TBuilder AddTo<TBuilder>(TBuilder endpoint, bool streaming)
        where TBuilder : IEndpointConventionBuilder
    {
        endpoint.Finally(builder =>
        {
            var appPolicy = builder.Metadata.OfType<IOutputCachePolicy>().LastOrDefault();
            builder.Metadata.Add(new ProtoHttpOutputCachePolicy(appPolicy, streaming));
        });
        return endpoint;
    }

    async ValueTask IOutputCachePolicy.CacheRequestAsync(OutputCacheContext context, CancellationToken cancellation)
    {
        if (appPolicy is not null)
        {
            await appPolicy.CacheRequestAsync(context, cancellation);
        }

        if (!context.EnableOutputCaching)
        {
            return;
        }

        if (streaming)
        {
            context.EnableOutputCaching = false;
            return;
        }

        var rules = context.CacheVaryByRules;
        rules.HeaderNames = StringValues.Concat(rules.HeaderNames, SelectingHeaders);
        // A GET's query is its request message: every key of it selects the answer, whatever a policy narrowed it to.
        rules.QueryKeys = "*";
    }

    ValueTask IOutputCachePolicy.ServeFromCacheAsync(OutputCacheContext context, CancellationToken cancellation) =>
        appPolicy?.ServeFromCacheAsync(context, cancellation) ?? ValueTask.CompletedTask;

    ValueTask IOutputCachePolicy.ServeResponseAsync(OutputCacheContext context, CancellationToken cancellation) =>
        appPolicy?.ServeResponseAsync(context, cancellation) ?? ValueTask.CompletedTask;
}

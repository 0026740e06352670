using Microsoft.AspNetCore.Cors.Infrastructure;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Pipeline;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>A CORS policy for ProtoHttp's endpoints called from pages on other origins.</summary>
public static class ProtoHttpCorsExtensions
{
    /// <summary>
    /// Adds the CORS policy <paramref name="name"/>: what <paramref name="configure"/> says (origins, verbs, credentials),
    /// plus the request headers the clients of every registered protocol send and the response headers they read
    /// (Connect's <c>Connect-Protocol-Version</c> and encodings, gRPC-Web's <c>Grpc-Timeout</c> and <c>Grpc-Status</c>...).
    /// Each protocol names its own headers; apply the policy with <c>RequireCors(name)</c> after <c>UseCors()</c>.
    /// </summary>
    public static IProtoHttpServerBuilder AddCorsPolicy(this IProtoHttpServerBuilder builder, string name, Action<CorsPolicyBuilder> configure)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentException.ThrowIfNullOrEmpty(name);
        ArgumentNullException.ThrowIfNull(configure);
        builder.Services.AddCors();
        builder.Services.AddOptions<CorsOptions>().Configure<IEnumerable<CallProtocol>>((options, protocols) => options.AddPolicy(name, policy =>
        {
            configure(policy);
            var all = protocols.ToArray();
            policy.WithHeaders([.. all.SelectMany(protocol => protocol.CorsRequestHeaders).Distinct(StringComparer.OrdinalIgnoreCase)])
                .WithExposedHeaders([.. all.SelectMany(protocol => protocol.CorsResponseHeaders).Distinct(StringComparer.OrdinalIgnoreCase)]);
        }));
        return builder;
    }
}

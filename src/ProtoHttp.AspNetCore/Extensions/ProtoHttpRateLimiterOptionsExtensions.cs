using System.Globalization;
using System.Threading.RateLimiting;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.Net.Http.Headers;
using ProtoHttp.AspNetCore.Internal;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Makes the rate limiter's refusals on ProtoHttp endpoints ProtoHttp answers.</summary>
public static class ProtoHttpRateLimiterOptionsExtensions
{
    /// <summary>The text of a rate-limit refusal; a known wait is added to it.</summary>
    internal const string RejectedText = "The call was refused by a rate limit; retry later.";

    /// <summary>
    /// On ProtoHttp's endpoints, answers a call the rate limiter rejects with <c>429</c> and an ErrorResult
    /// <c>RESOURCE_EXHAUSTED</c> in the negotiated format (Connect's <c>resource_exhausted</c> error on Connect paths),
    /// whatever <see cref="RateLimiterOptions.RejectionStatusCode"/> says, with <c>Retry-After</c> when the limiter knows
    /// the wait. Other endpoints keep the options' status and the <see cref="RateLimiterOptions.OnRejected"/> set before
    /// this call, which still runs first on every rejection; if it writes a body, that body stays. Call it after setting
    /// your own <c>OnRejected</c>: <c>builder.Services.AddRateLimiter(o => { ...; o.AddProtoHttpRejections(); })</c>.
    /// </summary>
    /// <param name="options">The rate limiter's options.</param>
    /// <returns>The same options.</returns>
    public static RateLimiterOptions AddProtoHttpRejections(this RateLimiterOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var previous = options.OnRejected;
        options.OnRejected = async (rejected, cancellationToken) =>
        {
            if (previous is not null)
            {
                await previous(rejected, cancellationToken);
            }

            var context = rejected.HttpContext;
            if (EndpointErrorWriter.Of(context) is not { } writer || context.Response.HasStarted)
            {
                return;
            }

            var text = RejectedText;
            if (rejected.Lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter))
            {
                var seconds = (long)Math.Ceiling(retryAfter.TotalSeconds);
                if (!context.Response.Headers.ContainsKey(HeaderNames.RetryAfter))
                {
                    context.Response.Headers.RetryAfter = seconds.ToString(CultureInfo.InvariantCulture);
                }

                text = $"The call was refused by a rate limit; retry after {seconds} s.";
            }

            await writer.WriteAsync(context, StatusCodes.Status429TooManyRequests, StatusCode.ResourceExhausted, text);
        };
        return options;
    }
}

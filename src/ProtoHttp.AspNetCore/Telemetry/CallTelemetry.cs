using System.Diagnostics;
using System.Diagnostics.Metrics;
using Grpc.Core;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Telemetry;

/// <summary>
/// The activity source and instruments behind <see cref="ProtoHttpInstrumentation"/>. They cost a null check per call
/// while nobody listens: an activity is made only for a listener, and a histogram records only when enabled.
/// </summary>
internal static class CallTelemetry
{
    private static readonly ActivitySource Source = new(ProtoHttpInstrumentation.ActivitySourceName);
    private static readonly Meter Meter = new(ProtoHttpInstrumentation.MeterName);

    private static readonly Histogram<double> Duration = Meter.CreateHistogram<double>(
        "rpc.server.call.duration", unit: "s", description: "How long ProtoHttp calls take, from the request to the last byte of the answer.",
        advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] });

    private static readonly Histogram<long> RequestSize = Meter.CreateHistogram<long>(
        "rpc.server.request.size", unit: "By", description: "The size of a call's request body, where it declares one.");

    private static readonly Histogram<long> ResponseSize = Meter.CreateHistogram<long>(
        "rpc.server.response.size", unit: "By", description: "The size of a call's answer, where it declares one.");

    private static readonly UpDownCounter<long> ActiveStreams = Meter.CreateUpDownCounter<long>(
        "rpc.server.active_streams", unit: "{stream}", description: "Streaming calls in progress.");

    /// <summary>
    /// Starts the telemetry of one call, tagged as its endpoint's <see cref="ProtoHttpMethodMetadata"/> says (the
    /// <c>rpc.system</c>, the service and method, whether it streams): what describes the endpoint describes its calls.
    /// <see langword="null"/> when nothing listens to the activity source or the instruments, so an unobserved call
    /// keeps no telemetry state (a call that started before a listener came is not measured, as ASP.NET Core's own
    /// request metrics decide at the start).
    /// </summary>
    public static CallScope? Start(ProtoHttpServerCallContext call)
    {
        var endpoint = call.Route.Metadata;
        var streaming = endpoint.Kind != MethodType.Unary;
        if (!Source.HasListeners() && !Duration.Enabled && !RequestSize.Enabled && !ResponseSize.Enabled && !(streaming && ActiveStreams.Enabled))
        {
            return null;
        }

        var activity = Source.HasListeners() ? Source.StartActivity(endpoint.ActivityName, ActivityKind.Internal) : null;
        if (activity is not null)
        {
            activity.SetTag("rpc.system", endpoint.RpcSystem);
            activity.SetTag("rpc.service", endpoint.Method.Service.FullName);
            activity.SetTag("rpc.method", endpoint.Method.Name);
        }

        if (streaming && ActiveStreams.Enabled)
        {
            ActiveStreams.Add(1, Tags(endpoint));
        }

        return new CallScope(activity, Stopwatch.GetTimestamp());
    }

    private static TagList Tags(ProtoHttpMethodMetadata endpoint) => new()
    {
        { "rpc.system", endpoint.RpcSystem },
        { "rpc.service", endpoint.Method.Service.FullName },
        { "rpc.method", endpoint.Method.Name },
    };

    /// <summary>One call's telemetry, ended once with the status it answered.</summary>
    internal readonly struct CallScope(Activity? activity, long started)
    {
        public void Stop(ProtoHttpServerCallContext call, StatusCode code)
        {
            var endpoint = call.Route.Metadata;
            var measured = Duration.Enabled || RequestSize.Enabled || ResponseSize.Enabled;
            // The protocol names its status attribute, and whether a success carries one (a rule, not a fact about the
            // endpoint, so it stays the protocol's); asked only when someone listens, as its value may be boxed.
            var status = activity is not null || measured ? call.Route.Protocol.StatusTag(code) : null;
            if (activity is not null)
            {
                if (status is { } tag)
                {
                    activity.SetTag(tag.Key, tag.Value);
                }

                if (code != StatusCode.OK)
                {
                    activity.SetStatus(ActivityStatusCode.Error, StatusMapping.ToCodeName(code));
                }

                activity.Dispose();
            }

            if (endpoint.Kind != MethodType.Unary && ActiveStreams.Enabled)
            {
                ActiveStreams.Add(-1, Tags(endpoint));
            }

            if (!measured)
            {
                return;
            }

            var tags = Tags(endpoint);
            if (status is { } statusTag)
            {
                tags.Add(statusTag);
            }

            Duration.Record(Stopwatch.GetElapsedTime(started).TotalSeconds, tags);
            var context = call.HttpContext;
            if (context.Request.ContentLength is { } requestLength)
            {
                RequestSize.Record(requestLength, tags);
            }

            if (context.Response.ContentLength is { } responseLength)
            {
                ResponseSize.Record(responseLength, tags);
            }
        }
    }
}

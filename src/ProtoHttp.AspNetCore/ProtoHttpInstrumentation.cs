namespace ProtoHttp.AspNetCore;

/// <summary>
/// The names under which ProtoHttp reports its calls, for OpenTelemetry:
/// <c>.WithTracing(t =&gt; t.AddSource(ProtoHttpInstrumentation.ActivitySourceName))</c> and
/// <c>.WithMetrics(m =&gt; m.AddMeter(ProtoHttpInstrumentation.MeterName))</c>. Each call is one activity (a child of
/// ASP.NET Core's HTTP span) and one <c>rpc.server.call.duration</c> measurement, tagged as OpenTelemetry's RPC
/// semantic conventions say: <c>rpc.system</c>, <c>rpc.service</c>, <c>rpc.method</c> and the status code.
/// </summary>
public static class ProtoHttpInstrumentation
{
    /// <summary>The <see cref="System.Diagnostics.ActivitySource"/> of ProtoHttp's calls.</summary>
    public const string ActivitySourceName = "ProtoHttp.AspNetCore";

    /// <summary>
    /// The <see cref="System.Diagnostics.Metrics.Meter"/> of ProtoHttp's calls: <c>rpc.server.call.duration</c> (s),
    /// <c>rpc.server.request.size</c> and <c>rpc.server.response.size</c> (bytes, where known),
    /// <c>rpc.server.active_streams</c>.
    /// </summary>
    public const string MeterName = "ProtoHttp.AspNetCore";
}

using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;
using ProtoHttp.AspNetCore;

namespace SearchService;

/// <summary>
/// OpenTelemetry for the sample, off unless configured: <c>OpenTelemetry:Exporter</c> = <c>console</c> prints each
/// call's spans and the metrics, <c>otlp</c> sends them to a collector (<c>OTEL_EXPORTER_OTLP_ENDPOINT</c>, by default
/// <c>http://localhost:4317</c>). ProtoHttp's calls come under ASP.NET Core's HTTP spans.
/// </summary>
public static class SampleTelemetry
{
    public const string ExporterKey = "OpenTelemetry:Exporter";

    public static void Configure(WebApplicationBuilder builder)
    {
        var exporter = builder.Configuration[ExporterKey];
        if (string.IsNullOrEmpty(exporter))
        {
            return;
        }

        var console = exporter.Equals("console", StringComparison.OrdinalIgnoreCase);
        if (!console && !exporter.Equals("otlp", StringComparison.OrdinalIgnoreCase))
        {
            throw new InvalidOperationException($"{ExporterKey} is '{exporter}'; the sample knows 'console' and 'otlp'.");
        }

        builder.Services.AddOpenTelemetry()
            .WithTracing(tracing =>
            {
                tracing.AddSource(ProtoHttpInstrumentation.ActivitySourceName).AddAspNetCoreInstrumentation();
                _ = console ? tracing.AddConsoleExporter() : tracing.AddOtlpExporter();
            })
            .WithMetrics(metrics =>
            {
                metrics.AddMeter(ProtoHttpInstrumentation.MeterName).AddAspNetCoreInstrumentation();
                _ = console ? metrics.AddConsoleExporter() : metrics.AddOtlpExporter();
            });
    }
}

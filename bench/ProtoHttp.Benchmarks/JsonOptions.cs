using System.Text.Json;

namespace ProtoHttp.Benchmarks;

/// <summary>The System.Text.Json settings used here: the web defaults Minimal API uses, and indented output for result files.</summary>
internal static class JsonOptions
{
    public static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);

    public static readonly JsonSerializerOptions Indented = new() { WriteIndented = true };
}

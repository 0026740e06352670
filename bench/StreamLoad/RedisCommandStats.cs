using System.Diagnostics;
using System.Globalization;

namespace StreamLoad;

/// <summary>Redis's <c>INFO commandstats</c> read with redis-cli: calls per command, commands run by scripts included.</summary>
internal static class RedisCommandStats
{
    public static async Task<Dictionary<string, long>> ReadAsync(int port)
    {
        using var process = Process.Start(new ProcessStartInfo("redis-cli", ["-p", port.ToString(CultureInfo.InvariantCulture), "INFO", "commandstats"])
        {
            RedirectStandardOutput = true,
            UseShellExecute = false,
        }) ?? throw new InvalidOperationException("redis-cli did not start.");
        var text = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        var calls = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in text.Split('\n', StringSplitOptions.TrimEntries))
        {
            // cmdstat_xadd:calls=12,usec=34,...
            var colon = line.IndexOf(':', StringComparison.Ordinal);
            if (!line.StartsWith("cmdstat_", StringComparison.Ordinal) || colon < 0)
            {
                continue;
            }

            var name = line[8..colon];
            var fields = line[(colon + 1)..].Split(',');
            var count = fields.FirstOrDefault(f => f.StartsWith("calls=", StringComparison.Ordinal));
            if (count is not null)
            {
                calls[name] = long.Parse(count[6..], CultureInfo.InvariantCulture);
            }
        }

        return calls;
    }

    /// <summary>Calls made between two readings, per command, leaving out the readings' own INFO.</summary>
    public static Dictionary<string, long> Between(Dictionary<string, long> before, Dictionary<string, long> after) =>
        after.Where(a => a.Key != "info")
            .Select(a => (a.Key, Calls: a.Value - before.GetValueOrDefault(a.Key)))
            .Where(a => a.Calls > 0)
            .ToDictionary(a => a.Key, a => a.Calls, StringComparer.Ordinal);
}

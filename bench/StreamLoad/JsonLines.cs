using System.Text.Json;

namespace StreamLoad;

/// <summary>One JSON object per line, flushed at once so a script sees each measurement as it ends.</summary>
internal sealed class JsonLines(TextWriter writer)
{
    public void Write(Dictionary<string, object?> record)
    {
        writer.WriteLine(JsonSerializer.Serialize(record));
        writer.Flush();
    }
}

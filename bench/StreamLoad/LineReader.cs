using System.Buffers;
using System.IO.Pipelines;

namespace StreamLoad;

/// <summary>Reads NDJSON: each line as it arrives, without copying it out of the pipe when it is in one piece.</summary>
internal static class LineReader
{
    public static async Task ReadAllAsync(Stream body, Action<ReadOnlySequence<byte>> onLine, CancellationToken cancellationToken)
    {
        var reader = PipeReader.Create(body, new StreamPipeReaderOptions(bufferSize: 64 * 1024));
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync(cancellationToken);
                var buffer = result.Buffer;
                while (buffer.PositionOf((byte)'\n') is { } end)
                {
                    var line = buffer.Slice(0, end);
                    if (!line.IsEmpty)
                    {
                        onLine(line);
                    }

                    buffer = buffer.Slice(buffer.GetPosition(1, end));
                }

                reader.AdvanceTo(buffer.Start, buffer.End);
                if (result.IsCompleted)
                {
                    if (!buffer.IsEmpty)
                    {
                        onLine(buffer);
                    }

                    return;
                }
            }
        }
        finally
        {
            await reader.CompleteAsync();
        }
    }
}

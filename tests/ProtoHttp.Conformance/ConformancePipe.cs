using System.Buffers.Binary;
using Conformance;
using Google.Protobuf;

namespace ProtoHttp.Conformance;

/// <summary>The runner's framing: a 4-byte little-endian length, then the message.</summary>
internal static class ConformancePipe
{
    /// <summary>The next request, or <see langword="null"/> when the runner closed the pipe.</summary>
    public static async Task<ConformanceRequest?> ReadRequestAsync(Stream input)
    {
        var lengthBytes = new byte[4];
        if (!await FillAsync(input, lengthBytes))
        {
            return null;
        }

        var body = new byte[BinaryPrimitives.ReadInt32LittleEndian(lengthBytes)];
        if (!await FillAsync(input, body))
        {
            throw new EndOfStreamException("The runner closed the pipe in the middle of a request.");
        }

        return ConformanceRequest.Parser.ParseFrom(body);
    }

    public static async Task WriteResponseAsync(Stream output, ConformanceResponse response)
    {
        var body = response.ToByteArray();
        var lengthBytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(lengthBytes, body.Length);
        await output.WriteAsync(lengthBytes);
        await output.WriteAsync(body);
        await output.FlushAsync();
    }

    private static async Task<bool> FillAsync(Stream input, byte[] buffer)
    {
        var read = 0;
        while (read < buffer.Length)
        {
            var count = await input.ReadAsync(buffer.AsMemory(read));
            if (count == 0)
            {
                return false;
            }

            read += count;
        }

        return true;
    }
}

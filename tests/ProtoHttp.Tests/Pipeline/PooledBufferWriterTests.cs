using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>The buffer text answers and stream records are framed in: its writer is kept per thread, never shared.</summary>
public class PooledBufferWriterTests
{
    [Fact]
    public void AWriterGivenBackIsTakenAgainOnTheSameThreadEmpty()
    {
        var first = PooledBufferWriter.Rent(16);
        "abc"u8.CopyTo(first.GetSpan(3));
        first.Advance(3);
        first.Dispose();

        var second = PooledBufferWriter.Rent(16);

        Assert.Same(first, second);
        Assert.Equal(0, second.WrittenMemory.Length);
        "de"u8.CopyTo(second.GetSpan(2));
        second.Advance(2);
        Assert.Equal("de"u8.ToArray(), second.WrittenMemory.ToArray());
        second.Dispose();
    }

    [Fact]
    public void DisposingTwiceGivesTheWriterBackOnce()
    {
        var writer = PooledBufferWriter.Rent(16);
        writer.Dispose();
        writer.Dispose();

        var a = PooledBufferWriter.Rent(16);
        var b = PooledBufferWriter.Rent(16);

        Assert.NotSame(a, b);
        a.Dispose();
        b.Dispose();
    }

    [Fact]
    public void AWriterGrowsPastItsFirstArrayKeepingWhatWasWritten()
    {
        using var writer = PooledBufferWriter.Rent(16);
        var bytes = Enumerable.Range(0, 5000).Select(i => (byte)i).ToArray();
        foreach (var chunk in bytes.Chunk(700))
        {
            chunk.CopyTo(writer.GetSpan(chunk.Length));
            writer.Advance(chunk.Length);
        }

        Assert.Equal(bytes, writer.WrittenMemory.ToArray());
    }
}

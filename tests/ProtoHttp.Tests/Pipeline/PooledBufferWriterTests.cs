using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>The buffer text answers and stream records are framed in: its writer is kept per thread, never shared.</summary>
public class PooledBufferWriterTests
{
    [Fact]
    public void AWriterGivenBackIsTakenAgainOnTheSameThreadEmpty()
    {
        var first = PooledBufferWriter.Rent(16);
        "abc"u8.CopyTo(first.Writer.GetSpan(3));
        first.Writer.Advance(3);
        var writer = first.Writer;
        first.Dispose();

        var second = PooledBufferWriter.Rent(16);

        Assert.Same(writer, second.Writer);
        Assert.Equal(0, second.WrittenMemory.Length);
        "de"u8.CopyTo(second.Writer.GetSpan(2));
        second.Writer.Advance(2);
        Assert.Equal("de"u8.ToArray(), second.WrittenMemory.ToArray());
        second.Dispose();
    }

    [Fact]
    public void DisposingTwiceGivesTheWriterBackOnce()
    {
        var lease = PooledBufferWriter.Rent(16);
        lease.Dispose();
        lease.Dispose();

        var a = PooledBufferWriter.Rent(16);
        var b = PooledBufferWriter.Rent(16);

        Assert.NotSame(a.Writer, b.Writer);
        a.Dispose();
        b.Dispose();
    }

    [Fact]
    public void ALeaseDisposedAgainAfterItsWriterWentToAnotherLeaveThatLeaseAlone()
    {
        var first = PooledBufferWriter.Rent(16);
        first.Dispose();
        var second = PooledBufferWriter.Rent(16);
        "kept"u8.CopyTo(second.Writer.GetSpan(4));
        second.Writer.Advance(4);

        first.Dispose();

        // The second lease still holds its array and what it wrote; had the first returned it, the pool would hand the
        // same array to the next renter, who would write over it.
        using var third = PooledBufferWriter.Rent(16);
        Assert.NotSame(second.Writer, third.Writer);
        "xxxx"u8.CopyTo(third.Writer.GetSpan(4));
        third.Writer.Advance(4);
        Assert.Equal("kept"u8.ToArray(), second.WrittenMemory.ToArray());
        second.Dispose();
    }

    [Fact]
    public void ALeaseGivenBackNoLongerReachesItsWriter()
    {
        var lease = PooledBufferWriter.Rent(16);
        lease.Dispose();

        Assert.Throws<ObjectDisposedException>(() => lease.Writer);
        Assert.Throws<ObjectDisposedException>(() => lease.WrittenMemory);
    }

    [Fact]
    public void AWriterGrowsPastItsFirstArrayKeepingWhatWasWritten()
    {
        using var lease = PooledBufferWriter.Rent(16);
        var bytes = Enumerable.Range(0, 5000).Select(i => (byte)i).ToArray();
        foreach (var chunk in bytes.Chunk(700))
        {
            chunk.CopyTo(lease.Writer.GetSpan(chunk.Length));
            lease.Writer.Advance(chunk.Length);
        }

        Assert.Equal(bytes, lease.WrittenMemory.ToArray());
    }
}

using System.Buffers;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over arrays rented from the shared pool, for the text responses that must be
/// written whole before their <c>Content-Length</c> is known, and for stream records framed whole. Take one with
/// <see cref="Rent"/> and dispose it to return its array; the writer itself is kept for the thread's next one, so a
/// call or a stream message allocates no writer.
/// </summary>
internal sealed class PooledBufferWriter : IBufferWriter<byte>, IDisposable
{
    // One spare per thread: a writer is taken whole by Rent and given back by Dispose, on whatever thread that runs,
    // so no two users ever share one.
    [ThreadStatic]
    private static PooledBufferWriter? t_spare;

    private byte[] _buffer;
    private int _written;

    private PooledBufferWriter(int initialCapacity) => _buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);

    /// <summary>A writer with room for <paramref name="initialCapacity"/> bytes to start with.</summary>
    public static PooledBufferWriter Rent(int initialCapacity)
    {
        if (t_spare is not { } writer)
        {
            return new PooledBufferWriter(initialCapacity);
        }

        t_spare = null;
        writer._buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);
        return writer;
    }

    public ReadOnlyMemory<byte> WrittenMemory => _buffer.AsMemory(0, _written);

    public void Advance(int count) => _written += count;

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Reserve(sizeHint);
        return _buffer.AsSpan(_written);
    }

    public void Dispose()
    {
        if (_buffer.Length == 0)
        {
            return; // Disposed already: it may be someone else's by now.
        }

        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = [];
        _written = 0;
        t_spare ??= this;
    }

    private void Reserve(int sizeHint)
    {
        var needed = _written + Math.Max(sizeHint, 1);
        if (needed <= _buffer.Length)
        {
            return;
        }

        var larger = ArrayPool<byte>.Shared.Rent(Math.Max(needed, _buffer.Length * 2));
        _buffer.AsSpan(0, _written).CopyTo(larger);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = larger;
    }
}

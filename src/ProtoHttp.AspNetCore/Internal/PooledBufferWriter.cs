using System.Buffers;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over arrays rented from the shared pool, for the text responses that must be
/// written whole before their <c>Content-Length</c> is known, and for stream records framed whole. Take one with
/// <see cref="Rent"/>, write to its <see cref="Lease.Writer"/>, and dispose the lease to return the array; the writer
/// itself is kept for the thread's next lease, so a call or a stream message allocates no writer.
/// </summary>
internal sealed class PooledBufferWriter : IBufferWriter<byte>
{
    // One spare per thread: a writer is taken whole by Rent and given back by the lease's Dispose, on whatever thread
    // that runs, so no two leases ever share one.
    [ThreadStatic]
    private static PooledBufferWriter? t_spare;

    private byte[] _buffer = [];
    private int _written;

    // Which lease holds the writer: each return moves it on, so a lease disposed again, even after the writer went to
    // another lease, finds another number and gives back nothing (it would otherwise return the other lease's array).
    private int _lease;

    private PooledBufferWriter()
    {
    }

    /// <summary>A lease of a writer with room for <paramref name="initialCapacity"/> bytes to start with.</summary>
    public static Lease Rent(int initialCapacity)
    {
        var writer = t_spare ?? new PooledBufferWriter();
        t_spare = null;
        writer._buffer = ArrayPool<byte>.Shared.Rent(initialCapacity);
        return new Lease(writer, writer._lease);
    }

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

    /// <summary>One use of a writer, from <see cref="Rent"/> to <see cref="Dispose"/>; a second Dispose does nothing.</summary>
    internal readonly struct Lease : IDisposable
    {
        private readonly PooledBufferWriter _writer;
        private readonly int _number;

        internal Lease(PooledBufferWriter writer, int number)
        {
            _writer = writer;
            _number = number;
        }

        /// <summary>The writer to write to while the lease lasts.</summary>
        public PooledBufferWriter Writer => Held();

        /// <summary>What was written so far.</summary>
        public ReadOnlyMemory<byte> WrittenMemory
        {
            get
            {
                var writer = Held();
                return writer._buffer.AsMemory(0, writer._written);
            }
        }

        public void Dispose()
        {
            var writer = _writer;
            if (writer is null || writer._lease != _number)
            {
                return; // Given back already: the writer may be another lease's by now.
            }

            writer._lease++;
            ArrayPool<byte>.Shared.Return(writer._buffer);
            writer._buffer = [];
            writer._written = 0;
            t_spare ??= writer;
        }

        private PooledBufferWriter Held() =>
            _writer is { } writer && writer._lease == _number ? writer : throw new ObjectDisposedException(nameof(PooledBufferWriter));
    }
}

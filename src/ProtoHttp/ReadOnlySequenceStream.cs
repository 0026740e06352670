using System.Buffers;

namespace ProtoHttp;

/// <summary>A read-only <see cref="Stream"/> over a <see cref="ReadOnlySequence{T}"/>, so an <c>XmlReader</c> decodes a body without copying it.</summary>
internal sealed class ReadOnlySequenceStream(ReadOnlySequence<byte> sequence) : Stream
{
    private ReadOnlySequence<byte> _remaining = sequence;

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Read(buffer.AsSpan(offset, count));

    public override int Read(Span<byte> buffer)
    {
        var count = (int)Math.Min(buffer.Length, _remaining.Length);
        _remaining.Slice(0, count).CopyTo(buffer);
        _remaining = _remaining.Slice(count);
        return count;
    }

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
}

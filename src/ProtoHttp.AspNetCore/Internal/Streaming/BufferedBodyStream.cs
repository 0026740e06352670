using System.Buffers;
using System.IO.Pipelines;
using System.Net.ServerSentEvents;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// A write-only stream over the response's <see cref="PipeWriter"/> that only copies into it: nothing waits for the
/// network here. <see cref="SseFormatter"/> writes through it, and the response writer flushes the pipe itself with the
/// call's token, so flow control and cancellation stay where they are for every stream format.
/// </summary>
internal sealed class BufferedBodyStream(PipeWriter output) : Stream
{
    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override void Write(ReadOnlySpan<byte> buffer) => output.Write(buffer);

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        Write(buffer.Span);
        return default;
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
    {
        Write(buffer.AsSpan(offset, count));
        return Task.CompletedTask;
    }

    // SseFormatter flushes after each event; the response writer's own flush follows it, with the call's token.
    public override void Flush()
    {
    }

    public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}

using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.GrpcWeb;

/// <summary>
/// Writes a gRPC-Web call's answer: status 200 and the call's type, a frame per message as the service writes it, then
/// the trailers frame with the status. Each write waits for the network, so a slow reader slows the service; one write
/// at a time, and none after the end (a service that ignored its deadline gets an <see cref="InvalidOperationException"/>).
/// In text mode each write goes out as its own padded base64.
/// </summary>
/// <param name="context">The call's context.</param>
/// <param name="type">The call's gRPC-Web type: the response's <c>Content-Type</c>, and whether it is base64 text.</param>
/// <param name="codec">What the messages are written in; <see langword="null"/> for an answer that is only trailers.</param>
internal sealed class GrpcWebResponseWriter(HttpContext context, GrpcWebMediaType type, IMessageCodec? codec) : IAsyncDisposable
{
    private readonly SemaphoreSlim _lock = new(1, 1);
    private volatile bool _ended;

    /// <summary>Writes one message frame and waits until the network has taken it.</summary>
    /// <exception cref="InvalidOperationException">The call has already ended.</exception>
    public async Task WriteMessageAsync(IMessage message, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(message);
        await _lock.WaitAsync(cancellationToken);
        try
        {
            if (_ended)
            {
                throw new InvalidOperationException("The call has ended; no more messages can be written to its response stream.");
            }

            Start();
            WriteFrame(output => Envelope.WriteMessage(output, message, codec!));
            await FlushAsync(cancellationToken);
        }
        finally
        {
            _lock.Release();
        }
    }

    /// <summary>Writes <paramref name="last"/> (a unary call's answer) if given, then the trailers frame, and flushes once.</summary>
    public async Task EndAsync(StatusCode code, string message, Metadata? trailers, IMessage? last = null)
    {
        _ended = true;
        await _lock.WaitAsync(context.RequestAborted);
        try
        {
            Start();
            if (last is not null)
            {
                WriteFrame(output => Envelope.WriteMessage(output, last, codec!));
            }

            if (type.Translated)
            {
                // grpc-dotnet's middleware turns these into the trailers frame once the call returns.
                GrpcWebTrailers.AddTo(context.Response, code, message, trailers);
            }
            else
            {
                WriteFrame(output => GrpcWebTrailers.Write(output, code, message, trailers));
            }

            await FlushAsync(context.RequestAborted);
        }
        finally
        {
            _lock.Release();
        }
    }

    public ValueTask DisposeAsync()
    {
        _ended = true;
        return ValueTask.CompletedTask;
    }

    private void WriteFrame(Action<System.Buffers.IBufferWriter<byte>> write)
    {
        if (!type.Text)
        {
            write(context.Response.BodyWriter);
            return;
        }

        using var frame = new PooledBufferWriter(512);
        write(frame);
        GrpcWebText.Encode(frame.WrittenMemory.Span, context.Response.BodyWriter);
    }

    private async Task FlushAsync(CancellationToken cancellationToken)
    {
        var result = await context.Response.BodyWriter.FlushAsync(cancellationToken);
        if (result.IsCanceled)
        {
            cancellationToken.ThrowIfCancellationRequested();
            throw new OperationCanceledException("The response stream's flush was canceled.");
        }
    }

    private void Start()
    {
        var response = context.Response;
        if (response.HasStarted)
        {
            return;
        }

        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = type.ContentType;
        // Every message must leave at once, not when some buffer fills.
        context.Features.Get<IHttpResponseBodyFeature>()?.DisableBuffering();
    }
}

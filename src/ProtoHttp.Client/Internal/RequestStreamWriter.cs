using System.IO.Pipelines;
using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// The <see cref="IClientStreamWriter{T}"/> of a client-streaming or bidirectional call: each write sends one envelope
/// and waits until the transport has taken it (so a slow server slows the writer instead of filling memory); completing
/// ends the request body. One write at a time, as under gRPC.
/// </summary>
internal sealed class RequestStreamWriter<TRequest>(IRequestStreamOwner owner, IRequestBody content, IMessageCodec codec)
    : IClientStreamWriter<TRequest>
    where TRequest : class
{
    private static readonly StreamPipeWriterOptions WriterOptions = new(leaveOpen: true);

    private PipeWriter? _output;
    private int _writing;
    private bool _completed;

    /// <summary>Kept for the generated code; compression and buffering hints have no meaning here.</summary>
    public WriteOptions? WriteOptions { get; set; }

    public async Task WriteAsync(TRequest message)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (_completed)
        {
            throw new InvalidOperationException("The request stream has been completed; no more messages can be written to it.");
        }

        owner.ThrowIfEnded();
        if (Interlocked.Exchange(ref _writing, 1) == 1)
        {
            throw new InvalidOperationException("A previous write to the request stream is still in progress; await each WriteAsync before the next.");
        }

        try
        {
            var output = await OutputAsync().ConfigureAwait(false);
            Envelope.WriteMessage(output, (IMessage)message, codec);
            var flushed = await output.FlushAsync(owner.Token).ConfigureAwait(false);
            if (flushed.IsCanceled)
            {
                throw new OperationCanceledException();
            }
        }
        catch (Exception ex)
        {
            // Whatever broke the write (a reset, a disposed stream, the call's cancellation), the call's status says why.
            throw await owner.WriteFailedAsync(ex).ConfigureAwait(false);
        }
        finally
        {
            Volatile.Write(ref _writing, 0);
        }
    }

    public async Task CompleteAsync()
    {
        if (_completed)
        {
            return;
        }

        _completed = true;
        try
        {
            if (_output is not null)
            {
                await _output.CompleteAsync().ConfigureAwait(false);
            }
        }
        catch (Exception ex)
        {
            // Ending the body flushes it: over HTTP/2 the server's answer may have ended the call and disposed the
            // request stream first, and then, as for a write, the call's status says why (never ObjectDisposedException).
            throw await owner.WriteFailedAsync(ex).ConfigureAwait(false);
        }
        finally
        {
            await content.CompleteAsync().ConfigureAwait(false);
        }
    }

    private async ValueTask<PipeWriter> OutputAsync()
    {
        if (_output is null)
        {
            var stream = await content.Stream.WaitAsync(owner.Token).ConfigureAwait(false);
            _output = PipeWriter.Create(stream, WriterOptions);
        }

        return _output;
    }
}

using System.IO.Pipelines;
using System.Net;
using Google.Protobuf;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// A request body that serializes its message straight into the request stream when the handler sends it; nothing is
/// serialized up front, and a handler that resends (a retry) serializes again. A server-streaming call's one request
/// goes as a single Connect envelope.
/// </summary>
internal sealed class MessageContent : HttpContent
{
    private static readonly StreamPipeWriterOptions WriterOptions = new(leaveOpen: true);

    private readonly IMessage _message;
    private readonly IMessageCodec _writer;
    private readonly bool _enveloped;

    public MessageContent(IMessage message, IMessageCodec writer, string contentType, bool enveloped = false)
    {
        _message = message;
        _writer = writer;
        _enveloped = enveloped;
        Headers.TryAddWithoutValidation("Content-Type", contentType);
    }

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        var output = PipeWriter.Create(stream, WriterOptions);
        if (_enveloped)
        {
            Envelope.WriteMessage(output, _message, _writer);
        }
        else
        {
            _writer.Write(_message, output);
        }

        await output.FlushAsync(cancellationToken).ConfigureAwait(false);
        await output.CompleteAsync().ConfigureAwait(false);
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override bool TryComputeLength(out long length)
    {
        // Protobuf knows its size without writing, so the request gets a Content-Length instead of chunked encoding;
        // the text formats would have to be written twice to know theirs.
        if (_writer == MessageCodecs.Protobuf)
        {
            length = _message.CalculateSize() + (_enveloped ? Envelope.HeaderLength : 0);
            return true;
        }

        length = 0;
        return false;
    }
}

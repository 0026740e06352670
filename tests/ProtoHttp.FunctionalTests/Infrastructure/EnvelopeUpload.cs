using System.Net;
using System.Net.Http.Headers;
using System.Threading.Channels;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A request body of envelopes written while the call runs, as a client-streaming or bidirectional client sends it:
/// each write goes out at once (flushed, which HttpClient does not do for a plain stream over HTTP/1.1);
/// <see cref="Complete"/> ends the body.
/// </summary>
public sealed class EnvelopeUpload(string mediaType) : HttpContent
{
    private readonly Channel<byte[]> _chunks = Channel.CreateUnbounded<byte[]>();

    public EnvelopeUpload WithType()
    {
        Headers.ContentType = MediaTypeHeaderValue.Parse(mediaType);
        return this;
    }

    public ValueTask WriteAsync(IMessage message) => WriteAsync(StreamWire.Envelope(message, mediaType));

    public ValueTask WriteAsync(byte[] bytes) => _chunks.Writer.WriteAsync(bytes);

    public void Complete() => _chunks.Writer.TryComplete();

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        SerializeToStreamAsync(stream, context, CancellationToken.None);

    // The call's token reaches here: a client that gives up stops sending, and HttpClient resets the stream.
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        await foreach (var chunk in _chunks.Reader.ReadAllAsync(cancellationToken))
        {
            await stream.WriteAsync(chunk, cancellationToken);
            await stream.FlushAsync(cancellationToken);
        }
    }

    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }
}

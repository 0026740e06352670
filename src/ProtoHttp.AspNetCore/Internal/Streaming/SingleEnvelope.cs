using Google.Protobuf;
using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Http;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// Reads the request of a server-streaming call sent as exactly one envelope, as Connect clients send it; flagged
/// compressed, it holds gzip when <c>gzip</c> says the client's Connect-Content-Encoding agreed on it.
/// </summary>
internal static class SingleEnvelope
{
    /// <exception cref="CallRejectedException">The body is not one well-formed envelope (400) or is over the limit (413).</exception>
    public static async ValueTask<IMessage> ReadAsync<TService>(
        HttpContext context, IMessageReader reader, MessageDescriptor descriptor, ServiceCallSettings<TService> settings, bool gzip, CancellationToken cancellationToken)
        where TService : class
    {
        var limit = settings.Options.MaxRequestBodySize;
        using var body = await RequestBodyReader.ReadAsync(context, limit + Envelope.HeaderLength, settings.InPlaceBodyLimit, cancellationToken);
        var data = body.Data;
        if (!Envelope.TryReadHeader(data, out var flags, out var length))
        {
            throw CallRejectedException.BadRequest($"The request body holds {data.Length} bytes; an envelope needs a 5-byte header.");
        }

        if (flags != Envelope.MessageFlag && !(gzip && flags == Envelope.CompressedFlag))
        {
            throw CallRejectedException.BadRequest($"The request envelope has the flags 0x{flags:x2}; a request message's envelope has the flags 0x00.");
        }

        if (length > limit)
        {
            throw CallRejectedException.TooLarge(limit);
        }

        if (data.Length != Envelope.HeaderLength + (long)length)
        {
            throw CallRejectedException.BadRequest(
                $"The request envelope says it holds {length} bytes, but the body has {data.Length - Envelope.HeaderLength} after the header; send exactly one envelope.");
        }

        if (flags != Envelope.CompressedFlag)
        {
            return reader.Read(data.Slice(Envelope.HeaderLength), descriptor);
        }

        return Connect.ConnectCompression.ReadGzipped(reader, data.Slice(Envelope.HeaderLength), descriptor, limit);
    }
}

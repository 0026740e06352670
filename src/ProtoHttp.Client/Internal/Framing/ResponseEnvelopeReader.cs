using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal.Framing;

/// <summary>
/// Reads a response stream of envelopes one message at a time, only as the caller asks: nothing is read ahead, so a slow
/// reader leaves the backlog in the network's flow control instead of memory. Each message is held whole once, at most
/// <see cref="ProtoHttpClientOptions.MaxResponseSize"/>; gzip envelopes are inflated within the same limit. The
/// protocol's <see cref="ResponseFraming"/> says which envelope is the last and what it holds: an end-stream message
/// (ProtoHttp, Connect) or a trailers frame (gRPC-Web).
/// </summary>
internal sealed class ResponseEnvelopeReader(Stream body, ResponseFraming framing, IMessageReader codec, long? limit, bool gzip, bool eventIds = false)
{
    // An event id is a position, two numbers and a dash: far below this.
    private const uint MaxEventIdSize = 64;

    // The end-stream message is the server's JSON, not a message of the app's: bounded even when messages are not.
    private const long MaxEndStreamSize = 4 * 1024 * 1024;

    private readonly PipeReader _reader = PipeReader.Create(body);
    private string? _nextEventId;
    private bool _ended;

    /// <summary>The trailers of the end-stream message, once it has been read.</summary>
    public Metadata? Trailers { get; private set; }

    /// <summary>The event id of the last message read, when the server sends them (docs/protocol.md, "Topics: streams that resume").</summary>
    public string? LastEventId { get; private set; }

    /// <summary>The failure the end-stream message told, if it told one.</summary>
    public RpcException? Error { get; private set; }

    /// <summary>The next message, or <see langword="null"/> once the end-stream message has been read.</summary>
    /// <exception cref="RpcException">
    /// <c>ResourceExhausted</c> for a message over the limit; <c>Internal</c> for a stream that is not one of envelopes.
    /// </exception>
    public async ValueTask<IMessage?> ReadAsync(MessageDescriptor descriptor, CancellationToken cancellationToken)
    {
        while (!_ended)
        {
            var result = await _reader.ReadAsync(cancellationToken).ConfigureAwait(false);
            var buffer = result.Buffer;
            if (Envelope.TryReadHeader(buffer, out var idFlags, out var idLength) && eventIds && idFlags == Envelope.EventIdFlag && idLength <= MaxEventIdSize)
            {
                // The id of the message that follows: kept, so that a broken stream resumes after it.
                var idSize = Envelope.HeaderLength + (long)idLength;
                if (buffer.Length >= idSize)
                {
                    _nextEventId = Encoding.ASCII.GetString(buffer.Slice(Envelope.HeaderLength, idLength));
                    _reader.AdvanceTo(buffer.GetPosition(idSize));
                    continue;
                }
            }
            else if (Envelope.TryReadHeader(buffer, out var flags, out var length))
            {
                var end = Check(flags, length);
                var size = Envelope.HeaderLength + (long)length;
                if (buffer.Length >= size)
                {
                    try
                    {
                        var message = Parse(buffer.Slice(Envelope.HeaderLength, length), flags, end, descriptor);
                        if (message is not null && _nextEventId is not null)
                        {
                            // Only now is it the id of a message the caller has: a stream broken in between resumes before it.
                            LastEventId = _nextEventId;
                            _nextEventId = null;
                        }

                        return message;
                    }
                    finally
                    {
                        _reader.AdvanceTo(buffer.GetPosition(size));
                    }
                }
            }

            if (result.IsCompleted)
            {
                _reader.AdvanceTo(buffer.End);
                throw Malformed(buffer.IsEmpty
                    ? "The response stream ended without its end-stream message, so the call's outcome is unknown"
                    : $"The response stream ends inside an envelope: {buffer.Length} bytes arrived of the envelope that starts there");
            }

            // Nothing consumed, everything examined: the next read waits for more and appends it.
            _reader.AdvanceTo(buffer.Start, buffer.End);
        }

        return null;
    }

    /// <summary>
    /// A stream that ended before its body: gRPC's trailers-only answer, whose outcome came in the headers
    /// (docs/protocol.md section 12). Reads nothing and gives <paramref name="trailers"/> and <paramref name="error"/>.
    /// </summary>
    public static ResponseEnvelopeReader Ended(ResponseFraming framing, Metadata trailers, RpcException? error) =>
        new(Stream.Null, framing, MessageCodecs.Protobuf, limit: 0, gzip: false) { _ended = true, Trailers = trailers, Error = error };

    public void Complete() => _reader.Complete();

    /// <summary>Whether the envelope is the end-stream message; refuses flags and lengths that cannot be read.</summary>
    private bool Check(byte flags, uint length)
    {
        var end = (flags & framing.EndFlag) != 0;
        var compressed = (flags & Envelope.CompressedFlag) != 0;
        if ((flags & ~(framing.EndFlag | Envelope.CompressedFlag)) != 0 || (compressed && !gzip))
        {
            throw Malformed(!compressed || gzip ? $"A response envelope has the unknown flags 0x{flags:x2}"
                : framing.CompressionHeader is { } header ? $"A response envelope is flagged compressed (0x01), but the response names no {header} this client reads"
                : "A response envelope is flagged compressed (0x01), but no compression is agreed on ProtoHttp's own paths (docs/protocol.md section 10)");
        }

        var max = end ? MaxEndStreamSize : limit;
        if (length > max)
        {
            throw end
                ? Malformed($"The end-stream message is {length} bytes, more than the {MaxEndStreamSize} bytes this client reads")
                : TooLarge(length, max.Value);
        }

        return end;
    }

    private IMessage? Parse(ReadOnlySequence<byte> payload, byte flags, bool end, MessageDescriptor descriptor)
    {
        byte[]? inflated = null;
        try
        {
            if ((flags & Envelope.CompressedFlag) != 0)
            {
                var max = end ? MaxEndStreamSize : limit ?? Array.MaxLength;
                if (!BoundedGzip.TryDecompress(payload, max, out inflated, out var inflatedLength))
                {
                    throw end ? Malformed($"The end-stream message inflates past {MaxEndStreamSize} bytes") : TooLarge(null, max);
                }

                payload = new ReadOnlySequence<byte>(inflated, 0, inflatedLength);
            }

            if (end)
            {
                (Trailers, Error) = framing.ReadEnd(payload);
                _ended = true;
                return null;
            }

            return codec.Read(payload, descriptor);
        }
        catch (InvalidMessageException ex)
        {
            throw Malformed($"A response message could not be read: {ex.Message}");
        }
        catch (InvalidDataException ex)
        {
            throw Malformed($"A response envelope flagged gzip is not gzip: {ex.Message}");
        }
        finally
        {
            if (inflated is { Length: > 0 })
            {
                ArrayPool<byte>.Shared.Return(inflated);
            }
        }
    }

    private static RpcException TooLarge(uint? length, long limit) => new(new Status(StatusCode.ResourceExhausted, length is { } size
        ? $"A response message of {size} bytes is larger than ProtoHttpClientOptions.MaxResponseSize ({limit} bytes)."
        : $"A gzipped response message inflates past ProtoHttpClientOptions.MaxResponseSize ({limit} bytes)."));

    private static RpcException Malformed(string reason) => new(new Status(StatusCode.Internal, reason + "."));
}

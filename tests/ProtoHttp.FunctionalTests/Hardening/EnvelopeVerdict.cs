using System.Buffers.Binary;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// What a protobuf envelope body (docs/protocol.md section 10) holds, read by the test itself: the 5-byte headers
/// (flags, big-endian length) walked by hand, each payload read by Google.Protobuf's parser. Either the messages, or
/// why the body is the client's fault: a header cut short, a length past the body or past the 4 MiB limit, a flag
/// (a client stream carries neither compression without an encoding nor an end-of-stream envelope), a payload the
/// parser refuses.
/// </summary>
public sealed record EnvelopeVerdict(IReadOnlyList<IMessage>? Messages, string? Fault)
{
    private const int Limit = 4 * 1024 * 1024;

    public static EnvelopeVerdict Of(byte[] body, MessageParser parser)
    {
        var messages = new List<IMessage>();
        for (var at = 0; at < body.Length;)
        {
            if (body.Length - at < 5)
            {
                return new(null, "a header cut short");
            }

            var length = BinaryPrimitives.ReadUInt32BigEndian(body.AsSpan(at + 1));
            if (length > Limit)
            {
                return new(null, "a length past the limit");
            }

            if (length > body.Length - at - 5)
            {
                return new(null, "a length past the body");
            }

            if (body[at] != 0)
            {
                return new(null, $"flags 0x{body[at]:x2}");
            }

            try
            {
                messages.Add(parser.ParseFrom(body.AsSpan(at + 5, (int)length)));
            }
            catch (InvalidProtocolBufferException ex)
            {
                return new(null, ex.Message);
            }

            at += 5 + (int)length;
        }

        return new(messages, null);
    }
}

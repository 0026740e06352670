using System.Buffers.Binary;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// Frames written by hand for stub servers, independent of the client's own framing code: one flag byte, a 4-byte
/// big-endian length, the payload (Connect's envelopes and gRPC-Web's frames alike, docs/protocol.md sections 10, 12).
/// </summary>
public static class Frames
{
    public static byte[] Of(byte flags, byte[] payload)
    {
        var frame = new byte[5 + payload.Length];
        frame[0] = flags;
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(1), payload.Length);
        payload.CopyTo(frame, 5);
        return frame;
    }
}

using System.Buffers;
using Grpc.Core;
using ProtoHttp.Client.Internal.Protocols.Connect;
using ProtoHttp.Streaming;

namespace ProtoHttp.Client.Internal.Framing;

/// <summary>
/// Envelope streams (docs/protocol.md section 10), ProtoHttp's and Connect's: the last envelope is the end-stream
/// message (flag 0x02), Connect's JSON. Only Connect agrees on a compression, in <c>Connect-Content-Encoding</c>;
/// ProtoHttp's own paths agree on none, so a flagged envelope there is malformed.
/// </summary>
internal sealed class EnvelopeFraming(string? compressionHeader) : ResponseFraming
{
    /// <summary>ProtoHttp's own envelope streams: no compression.</summary>
    public static readonly EnvelopeFraming Native = new(null);

    /// <summary>Connect's streams, compressed as <c>Connect-Content-Encoding</c> says.</summary>
    public static readonly EnvelopeFraming Connect = new("Connect-Content-Encoding");

    public override byte EndFlag => Envelope.EndStreamFlag;

    public override string? CompressionHeader { get; } = compressionHeader;

    public override (Metadata Trailers, RpcException? Error) ReadEnd(ReadOnlySequence<byte> payload) => EndStreamMessage.Read(payload);
}

using System.Buffers;
using System.Text;
using Grpc.Core;
using ProtoHttp.Client.Internal.Framing;

namespace ProtoHttp.Client.Internal.Protocols.GrpcWeb;

/// <summary>
/// gRPC-Web's response framing (docs/protocol.md section 12): message frames, then the trailers frame (flag 0x80)
/// whose payload is an HTTP/1 header block, <c>name: value\r\n</c> each: <c>grpc-status</c>, <c>grpc-message</c>
/// (percent-encoded) and the call's trailers, binary ones in base64. Compression is named by <c>grpc-encoding</c>.
/// </summary>
internal sealed class GrpcWebTrailersFrame : ResponseFraming
{
    public static readonly GrpcWebTrailersFrame Instance = new();

    public override byte EndFlag => 0x80;

    public override string? CompressionHeader => GrpcWebStatus.EncodingHeader;

    public override (Metadata Trailers, RpcException? Error) ReadEnd(ReadOnlySequence<byte> payload)
    {
        var trailers = new Metadata();
        string? status = null;
        string? message = null;
        foreach (var line in Encoding.ASCII.GetString(payload).Split('\n'))
        {
            var text = line.TrimEnd('\r');
            if (text.Length == 0)
            {
                continue;
            }

            var colon = text.IndexOf(':');
            if (colon <= 0)
            {
                throw Unreadable($"the line '{text}' is not 'name: value'");
            }

            var name = text[..colon].Trim().ToLowerInvariant();
            var value = text[(colon + 1)..].Trim();
            switch (name)
            {
                case GrpcWebStatus.StatusHeader:
                    status = value;
                    break;
                case GrpcWebStatus.MessageHeader:
                    message = value;
                    break;
                default:
                    HeaderMetadata.AddValues(trailers, name, [value]);
                    break;
            }
        }

        return GrpcWebStatus.TryRead(status, message, trailers, out var error)
            ? (trailers, error)
            : throw Unreadable(status is null ? "it has no grpc-status" : $"its grpc-status '{status}' is not a status code");
    }

    private static RpcException Unreadable(string reason) =>
        new(new Status(StatusCode.Internal, $"The gRPC-Web trailers frame could not be read: {reason}."));
}

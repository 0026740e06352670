using System.Buffers;
using Grpc.Core;

namespace ProtoHttp.Client.Internal.Framing;

/// <summary>
/// How one protocol frames a response stream beyond the 5-byte header all of them share (flag, big-endian length):
/// the flag of the last frame and what it holds, and the response header that names the messages' compression.
/// ProtoHttp's envelopes and Connect's end with the end-stream message (flag 0x02, docs/protocol.md section 10);
/// gRPC-Web with its trailers frame (flag 0x80, section 12).
/// </summary>
internal abstract class ResponseFraming
{
    /// <summary>The flag bit that marks the last frame.</summary>
    public abstract byte EndFlag { get; }

    /// <summary>The response header naming the compression of flagged frames; <see langword="null"/> where none is agreed.</summary>
    public abstract string? CompressionHeader { get; }

    /// <summary>The trailers the last frame holds, and the exception the call ends with or <see langword="null"/> for success.</summary>
    /// <exception cref="RpcException"><c>Internal</c>: the payload is not the protocol's last frame.</exception>
    public abstract (Metadata Trailers, RpcException? Error) ReadEnd(ReadOnlySequence<byte> payload);

    /// <summary>Whether <paramref name="response"/>'s frames may be gzipped (<see cref="CompressionHeader"/> says gzip).</summary>
    /// <exception cref="RpcException"><c>Internal</c>: it names a compression other than gzip and identity.</exception>
    public bool IsGzip(HttpResponseMessage response, string fullName)
    {
        if (CompressionHeader is null || !response.Headers.TryGetValues(CompressionHeader, out var values))
        {
            return false;
        }

        var encoding = string.Join(",", values).Trim();
        if (encoding.Equals("gzip", StringComparison.OrdinalIgnoreCase))
        {
            return true;
        }

        return encoding.Length == 0 || encoding.Equals("identity", StringComparison.OrdinalIgnoreCase)
            ? false
            : throw new RpcException(new Status(StatusCode.Internal,
                $"The response to {fullName} is compressed with '{encoding}' ({CompressionHeader}); this client reads gzip and identity."));
    }
}

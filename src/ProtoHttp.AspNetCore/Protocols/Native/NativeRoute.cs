using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>A route of ProtoHttp's own protocol, with what its suffix forces (docs/protocol.md sections 3 and 10).</summary>
internal sealed record NativeRoute : CallRoute
{
    /// <summary>The unary answer's type a suffix forces; null where the request decides.</summary>
    public WritableMediaType? ForcedType { get; init; }

    /// <summary>The stream a suffix forces; null where the request decides.</summary>
    public StreamMediaType? ForcedStream { get; init; }

    /// <summary>A suffix that names a format with no stream form (<c>.xml</c> on a streaming method): a 406 once the request is otherwise acceptable.</summary>
    public string? SuffixWithoutStream { get; init; }
}

using System.Diagnostics.CodeAnalysis;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>A route of ProtoHttp's own protocol, with what its suffix forces (docs/protocol.md sections 3 and 10).</summary>
internal sealed record NativeRoute : CallRoute
{
    /// <summary>A route whose initializer sets every required property itself.</summary>
    public NativeRoute()
    {
    }

    /// <summary>A route of <paramref name="method"/> at <paramref name="pattern"/> (<see cref="CallRoute(CallProtocol, BoundMethod, ServiceEndpoints, string)"/>).</summary>
    [SetsRequiredMembers]
    public NativeRoute(CallProtocol protocol, BoundMethod method, ServiceEndpoints service, string pattern)
        : base(protocol, method, service, pattern)
    {
    }

    /// <summary>The unary answer's type a suffix forces; null where the request decides.</summary>
    public WritableMediaType? ForcedType { get; init; }

    /// <summary>The stream a suffix forces; null where the request decides.</summary>
    public StreamMediaType? ForcedStream { get; init; }

    /// <summary>A suffix that names a format with no stream form (<c>.xml</c> on a streaming method): a 406 once the request is otherwise acceptable.</summary>
    public string? SuffixWithoutStream { get; init; }
}

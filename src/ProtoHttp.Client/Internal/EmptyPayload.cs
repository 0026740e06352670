using System.Buffers;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>An empty message payload, for a marshaller to make an empty message of its type (see <see cref="ClientMethod"/>).</summary>
internal sealed class EmptyPayload : DeserializationContext
{
    public static EmptyPayload Instance { get; } = new();

    public override int PayloadLength => 0;

    public override byte[] PayloadAsNewBuffer() => [];

    public override ReadOnlySequence<byte> PayloadAsReadOnlySequence() => ReadOnlySequence<byte>.Empty;
}

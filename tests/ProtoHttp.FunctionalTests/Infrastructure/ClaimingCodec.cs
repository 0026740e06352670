using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A codec that only claims a name, media types and a suffix, for the registry's refusals at startup: it never reads
/// or writes, since a service whose codecs clash is never mapped.
/// </summary>
public sealed class ClaimingCodec : MessageCodec
{
    public ClaimingCodec(string name, string? suffix, params string[] mediaTypes)
        : base(name, mediaTypes)
    {
        Suffix = suffix;
    }

    public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor) => throw new NotSupportedException();

    public override void Write(IMessage message, IBufferWriter<byte> output) => throw new NotSupportedException();
}

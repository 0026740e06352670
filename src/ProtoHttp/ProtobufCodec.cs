using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>The standard protobuf binary encoding.</summary>
/// <remarks>It has no options, so one instance serves everywhere and writers can tell it by reference.</remarks>
internal sealed class ProtobufCodec : MessageCodec
{
    public static readonly ProtobufCodec Instance = new();

    private ProtobufCodec()
        : base("proto", ProtoHttp.MediaTypes.Protobuf, "application/protobuf", "application/vnd.google.protobuf", "application/proto")
    {
        Suffix = ".pb";
        CanBeEnveloped = true;
    }

    public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor)
    {
        var message = MessageFactory.Create(descriptor);
        try
        {
            // MergeFrom rather than ParseFrom: required fields are checked after every format, in one place,
            // so the client hears which ones are missing.
            message.MergeFrom(body);
        }
        catch (InvalidProtocolBufferException ex)
        {
            throw new InvalidMessageException($"The protobuf body is not a valid {descriptor.Name}: {ex.Message}", ex);
        }

        return message;
    }

    public override void Write(IMessage message, IBufferWriter<byte> output) => message.WriteTo(output);
}

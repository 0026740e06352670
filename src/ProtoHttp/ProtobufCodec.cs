using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>The standard protobuf binary encoding.</summary>
internal sealed class ProtobufCodec : IMessageCodec
{
    public static readonly ProtobufCodec Instance = new();

    public MessageFormat Format => MessageFormat.Protobuf;

    public IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor)
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

    public void Write(IMessage message, IBufferWriter<byte> output) => message.WriteTo(output);
}

using System.Buffers;
using Google.Protobuf;

namespace ProtoHttp;

/// <summary>A format that can also write messages.</summary>
/// <remarks>Every <see cref="MessageCodec"/> is one; get a service's from <see cref="MessageCodecs"/>.</remarks>
public interface IMessageCodec : IMessageReader
{
    /// <summary>Writes the whole message to <paramref name="output"/>.</summary>
    /// <exception cref="UnwritableMessageException">The format cannot represent a value of the message (XML and a string it cannot carry).</exception>
    void Write(IMessage message, IBufferWriter<byte> output);
}

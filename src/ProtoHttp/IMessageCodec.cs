using System.Buffers;
using Google.Protobuf;

namespace ProtoHttp;

/// <summary>A format that can also write messages: protobuf, JSON and XML.</summary>
internal interface IMessageCodec : IMessageReader
{
    /// <summary>Writes the whole message to <paramref name="output"/>.</summary>
    void Write(IMessage message, IBufferWriter<byte> output);
}

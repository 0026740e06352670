using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>Reads a message of a known type from a body in one format.</summary>
/// <remarks>Every <see cref="MessageCodec"/> is one; get a service's from <see cref="MessageCodecs"/>.</remarks>
public interface IMessageReader
{
    /// <summary>Reads a whole message; an empty body is the empty message.</summary>
    /// <exception cref="InvalidMessageException">The body is not a valid message of that type.</exception>
    IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor);
}

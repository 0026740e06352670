using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>Reads a message of a known type from a body in one format.</summary>
/// <remarks>Get one from <see cref="MessageCodecs.Reader(MessageFormat)"/>.</remarks>
public interface IMessageReader
{
    /// <summary>The format this reader understands.</summary>
    MessageFormat Format { get; }

    /// <summary>Reads a whole message; an empty body is the empty message.</summary>
    /// <exception cref="InvalidMessageException">The body is not a valid message of that type.</exception>
    IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor);
}

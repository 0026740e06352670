using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A codec an app adds without touching ProtoHttp: a message's protobuf bytes as base64 text. It exists to show that
/// a registered codec reaches every place ProtoHttp lists formats; a text codec (so answers say charset=utf-8) and a
/// Connect codec (so <c>application/b64</c> and <c>application/connect+b64</c> envelopes carry it).
/// </summary>
public sealed class Base64ProtobufCodec : MessageCodec
{
    public const string MediaType = "application/x-protobuf-base64";

    public const string TextMediaType = "text/x-protobuf-base64";

    public Base64ProtobufCodec()
        : base("b64", MediaType, TextMediaType)
    {
        Suffix = ".b64";
        IsText = true;
        CanBeEnveloped = true;
    }

    public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor)
    {
        try
        {
            return descriptor.Parser.ParseFrom(Convert.FromBase64String(Encoding.UTF8.GetString(body)));
        }
        catch (Exception ex) when (ex is FormatException or InvalidProtocolBufferException)
        {
            throw new InvalidMessageException($"The body is not base64 of a {descriptor.Name}: {ex.Message}", ex);
        }
    }

    public override void Write(IMessage message, IBufferWriter<byte> output) =>
        output.Write(Encoding.UTF8.GetBytes(Convert.ToBase64String(message.ToByteArray())));

    /// <summary>What a client sends: the message in this codec.</summary>
    public static byte[] Encode(IMessage message) => Encoding.UTF8.GetBytes(Convert.ToBase64String(message.ToByteArray()));

    /// <summary>What a client reads back.</summary>
    public static T Decode<T>(MessageParser<T> parser, byte[] body)
        where T : IMessage<T> => parser.ParseFrom(Convert.FromBase64String(Encoding.UTF8.GetString(body)));
}

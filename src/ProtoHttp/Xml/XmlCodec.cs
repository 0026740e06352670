using System.Buffers;
using System.Xml;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>ProtoHttp's XML mapping (docs/protocol.md section 4), after the protobuf-csharp-port one: <c>&lt;root&gt;</c>, one element per set field.</summary>
internal sealed class XmlCodec(FormatOptions options) : IMessageCodec
{
    private readonly XmlDictionaryReaderQuotas _quotas = XmlMessageReader.Quotas(options);

    public MessageFormat Format => MessageFormat.Xml;

    public IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor) => XmlMessageReader.Read(body, descriptor, options, _quotas);

    public void Write(IMessage message, IBufferWriter<byte> output) => XmlMessageWriter.Write(message, output);
}

using System.Buffers;
using System.Xml;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>ProtoHttp's XML mapping (docs/protocol.md section 4), after the protobuf-csharp-port one: <c>&lt;root&gt;</c>, one element per set field.</summary>
internal sealed class XmlCodec : MessageCodec
{
    private readonly FormatOptions _options;
    // Made on the first XML body: the quotas type's statics belong to the XML reader's code, which a service that is
    // never sent XML need not page in at startup.
    private readonly Lazy<XmlDictionaryReaderQuotas> _quotas;

    public XmlCodec(FormatOptions options)
        : base("xml", ProtoHttp.MediaTypes.Xml, "text/xml")
    {
        Suffix = ".xml";
        IsText = true;
        StructuredSuffix = "+xml";
        _options = options;
        _quotas = new(() => XmlMessageReader.Quotas(options));
    }

    public override MessageCodec WithOptions(FormatOptions options) => new XmlCodec(options);

    public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor) => XmlMessageReader.Read(body, descriptor, _options, _quotas.Value);

    public override void Write(IMessage message, IBufferWriter<byte> output) => XmlMessageWriter.Write(message, output);
}

using ProtoHttp.Forms;
using ProtoHttp.Json;
using ProtoHttp.Xml;
namespace ProtoHttp;

/// <summary>The reader and writer of every format, built once per set of <see cref="FormatOptions"/>.</summary>
internal sealed class MessageCodecs
{
    private readonly IMessageCodec?[] _writers;
    private readonly IMessageReader?[] _readers;

    public MessageCodecs(FormatOptions options)
    {
        Options = options;
        var json = new JsonCodec(options);
        var xml = new XmlCodec(options);
        _writers = new IMessageCodec?[4];
        _writers[(int)MessageFormat.Protobuf] = ProtobufCodec.Instance;
        _writers[(int)MessageFormat.Json] = json;
        _writers[(int)MessageFormat.Xml] = xml;
        _readers = new IMessageReader?[4];
        _readers[(int)MessageFormat.Protobuf] = ProtobufCodec.Instance;
        _readers[(int)MessageFormat.Json] = json;
        _readers[(int)MessageFormat.Xml] = xml;
        _readers[(int)MessageFormat.Form] = new FormBinder(options);
    }

    public FormatOptions Options { get; }

    /// <summary>The writer for a response format, or <see langword="null"/> when the format is not written.</summary>
    public IMessageCodec? Writer(MessageFormat format) => _writers[(int)format];

    /// <summary>The reader for a request format (form bodies and query strings share one), or <see langword="null"/>.</summary>
    public IMessageReader? Reader(MessageFormat format) => _readers[(int)format];
}

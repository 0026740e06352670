using Google.Protobuf;
using ProtoHttp.Forms;
using ProtoHttp.Json;
using ProtoHttp.Xml;
namespace ProtoHttp;

/// <summary>
/// The reader and writer of every format (docs/protocol.md sections 2-4), built once per set of <see cref="FormatOptions"/>
/// and safe to share between threads: what ProtoHttp's server and client read and write messages with.
/// </summary>
public sealed class MessageCodecs
{
    private readonly IMessageCodec?[] _writers;
    private readonly IMessageReader?[] _readers;

    /// <summary>Builds the codecs of every format for <paramref name="options"/>.</summary>
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

    /// <summary>The options the codecs were built with.</summary>
    public FormatOptions Options { get; }

    /// <summary>The writer for a response format, or <see langword="null"/> when the format is not written.</summary>
    public IMessageCodec? Writer(MessageFormat format) => _writers[(int)format];

    /// <summary>The reader for a request format (form bodies and query strings share one), or <see langword="null"/>.</summary>
    public IMessageReader? Reader(MessageFormat format) => _readers[(int)format];

    /// <summary>
    /// Checks a message read by one of the readers for the proto2 <c>required</c> fields it lacks, at any depth and
    /// inside the extensions of <see cref="Options"/>; readers leave this check to the caller, as a server checks
    /// requests and a client trusts responses.
    /// </summary>
    /// <exception cref="InvalidMessageException">One or more required fields are not set; the message names them.</exception>
    public void CheckRequiredFields(IMessage message) => RequiredFields.Check(message, Options.Extensions);
}

using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Protobuf's canonical JSON mapping: written by <see cref="JsonMessageWriter"/> (byte for byte Google.Protobuf's
/// <see cref="JsonFormatter"/> output, several times faster), read by Google.Protobuf's <see cref="JsonParser"/>.
/// </summary>
internal sealed class JsonCodec : IMessageCodec
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private readonly JsonMessageWriter _writer;
    private readonly JsonParser _parser;

    public JsonCodec(FormatOptions options)
    {
        _writer = JsonMessageWriter.For(options.PreserveProtoFieldNames);
        _parser = new JsonParser(JsonParser.Settings.Default
            .WithIgnoreUnknownFields(options.IgnoreUnknownFields)
            // JsonParser allows one object more than its limit (the root is not counted); PROTOCOL.md counts the
            // root, as the XML reader does, so 101 nested objects are refused like 101 nested elements.
            .WithRecursionLimit(options.MaxDepth - 1));
    }

    public MessageFormat Format => MessageFormat.Json;

    public IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor)
    {
        if (body.IsEmpty)
        {
            return MessageFactory.Create(descriptor);
        }

        string json;
        try
        {
            json = StrictUtf8.GetString(body);
        }
        catch (DecoderFallbackException ex)
        {
            throw new InvalidMessageException("The JSON body is not valid UTF-8.", ex);
        }

        try
        {
            return _parser.Parse(json, descriptor);
        }
        // InvalidOperationException: an Any whose @type names a message the parser's type registry does not know.
        catch (Exception ex) when (ex is InvalidJsonException or InvalidProtocolBufferException or FormatException or OverflowException or ArgumentException
            or InvalidOperationException)
        {
            throw new InvalidMessageException($"The JSON body is not a valid {descriptor.Name}: {ex.Message}", ex);
        }
    }

    public void Write(IMessage message, IBufferWriter<byte> output)
    {
        try
        {
            _writer.Write(message, output);
        }
        catch (Exception ex) when (ex is InvalidOperationException or ArgumentException)
        {
            // A valid message JSON cannot represent: a Timestamp or Duration out of JSON's range, an Any whose type
            // the registry does not know, a lone surrogate. Protobuf carries all of them: 406, as for XML. Part of
            // the body may already be in the output, which the caller discards with the failed answer.
            throw new UnwritableMessageException($"The answer cannot be written as JSON: {ex.Message}");
        }
    }
}

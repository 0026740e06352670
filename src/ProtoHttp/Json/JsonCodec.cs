using System.Buffers;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Protobuf's canonical JSON mapping: written by <see cref="JsonMessageWriter"/> (byte for byte Google.Protobuf's
/// <see cref="JsonFormatter"/> output) and read by <see cref="JsonMessageReader"/> (what Google.Protobuf's
/// <see cref="JsonParser"/> reads, into equal messages, without using it), both straight over UTF-8 and several times faster.
/// </summary>
internal sealed class JsonCodec : MessageCodec
{
    private readonly JsonMessageWriter _writer;
    private readonly JsonMessageReader _reader;

    public JsonCodec(FormatOptions options)
        : base("json", ProtoHttp.MediaTypes.Json, "text/json")
    {
        Suffix = ".json";
        IsText = true;
        StructuredSuffix = "+json";
        CanBeEnveloped = true;
        _writer = JsonMessageWriter.For(options);
        _reader = new JsonMessageReader(options.IgnoreUnknownFields, options.MaxDepth, options.Extensions, options);
    }

    public override MessageCodec WithOptions(FormatOptions options) => new JsonCodec(options);

    public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor)
    {
        if (body.IsEmpty)
        {
            return MessageFactory.Create(descriptor);
        }

        if (!Utf8Validation.IsValid(body))
        {
            throw new InvalidMessageException("The JSON body is not valid UTF-8.");
        }

        try
        {
            return _reader.Read(body, descriptor);
        }
        catch (JsonException ex)
        {
            throw new InvalidMessageException($"The JSON body is not valid JSON: {ex.Message}", ex);
        }
        // InvalidOperationException: a lone surrogate escape (from Utf8JsonReader). The others: .NET's parsing of a
        // value's text, and protobuf's own checks where a reader stores a value.
        catch (Exception ex) when (ex is InvalidProtocolBufferException or FormatException or OverflowException or ArgumentException
            or InvalidOperationException)
        {
            throw new InvalidMessageException($"The JSON body is not a valid {descriptor.Name}: {ex.Message}", ex);
        }
    }

    public override void Write(IMessage message, IBufferWriter<byte> output)
    {
        try
        {
            _writer.Write(message, output);
        }
        catch (Exception ex) when (ex is InvalidOperationException or ArgumentException or InvalidProtocolBufferException)
        {
            // A valid message JSON cannot represent: a Timestamp or Duration out of JSON's range, an Any whose type
            // the registry does not know (or whose payload is not that type, or whose Anys nest too deep), a lone
            // surrogate. Protobuf carries all of them: 406, as for XML. Part of the body may already be in the
            // output, which the caller discards with the failed answer.
            throw new UnwritableMessageException($"The answer cannot be written as JSON: {ex.Message}");
        }
    }
}

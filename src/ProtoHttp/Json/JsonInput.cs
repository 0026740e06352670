using System.Buffers;
using System.Text;
using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>The reader over a request body, with the body itself (so a value's raw text can be handed on) and the reader settings.</summary>
internal ref struct JsonInput
{
    // JsonParser limits message nesting, not JSON nesting: an ignored unknown value may nest as deep as the body
    // allows, and the reader keeps one bit per level, so no limit of its own is set.
    private static readonly JsonReaderOptions Options = new() { MaxDepth = int.MaxValue };

    public Utf8JsonReader Reader;

    public JsonInput(ReadOnlySequence<byte> body, JsonMessageReader owner)
    {
        Reader = new Utf8JsonReader(body, Options);
        Body = body;
        Owner = owner;
    }

    public readonly ReadOnlySequence<byte> Body { get; }

    public readonly JsonMessageReader Owner { get; }

    /// <summary>The whole current value as text (the reader then stands on its last token), for JsonParser.</summary>
    public string TakeRawValue()
    {
        var start = Reader.TokenStartIndex;
        Reader.Skip();
        return Encoding.UTF8.GetString(Body.Slice(start, Reader.BytesConsumed - start));
    }
}

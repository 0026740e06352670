using System.Buffers;
using System.Text.Json;

namespace ProtoHttp.Json;

/// <summary>The reader over a request body, with the reader that owns the plans and settings.</summary>
internal ref struct JsonInput
{
    // JsonParser limits message nesting, not JSON nesting: an ignored unknown value may nest as deep as the body
    // allows, and the reader keeps one bit per level, so no limit of its own is set.
    private static readonly JsonReaderOptions Options = new() { MaxDepth = int.MaxValue };

    public Utf8JsonReader Reader;

    public JsonInput(ReadOnlySequence<byte> body, JsonMessageReader owner)
    {
        Reader = new Utf8JsonReader(body, Options);
        Owner = owner;
    }

    public readonly JsonMessageReader Owner { get; }
}

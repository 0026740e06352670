using System.Buffers;
using System.Collections.Concurrent;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Reads UTF-8 JSON into messages as Google.Protobuf's <see cref="JsonParser"/> would (same values accepted, same
/// refused, equal messages), straight from the body with <see cref="Utf8JsonReader"/>. Each message type gets a
/// <see cref="JsonReadPlan"/> once; well-known types other than Timestamp and the wrappers, and any message the plan
/// cannot model, are read by JsonParser itself from their raw text, so its rules for them are never guessed.
/// </summary>
internal sealed class JsonMessageReader
{
    private readonly ConcurrentDictionary<MessageDescriptor, JsonReadPlan> _plans = new();
    private readonly Func<MessageDescriptor, JsonReadPlan> _build;

    // JsonParser for a value at each nesting level, limited to the levels left below it.
    private readonly JsonParser?[] _parsers;

    // The options' Any types, built when JsonParser first needs them (FormatOptions.AnyTypes).
    private readonly FormatOptions _anyTypes;

    public JsonMessageReader(bool ignoreUnknownFields, int maxDepth, ExtensionCatalog extensions, FormatOptions anyTypes)
    {
        _anyTypes = anyTypes;
        IgnoreUnknownFields = ignoreUnknownFields;
        Extensions = extensions;
        MaxDepth = maxDepth;
        _parsers = new JsonParser?[maxDepth + 1];
        _build = descriptor => new JsonReadPlan(this, descriptor, JsonReadPlanBuilder.Build(this, descriptor));
    }

    public bool IgnoreUnknownFields { get; }

    /// <summary>The extensions read as <c>[full.name]</c> keys.</summary>
    public ExtensionCatalog Extensions { get; }

    /// <summary>The deepest message nesting accepted, counting the root as 1.</summary>
    public int MaxDepth { get; }

    /// <summary>
    /// Types JsonParser may read in a special form. Its own test is internal; every type of the google.protobuf
    /// package is taken instead, which at worst hands an ordinary message to JsonParser.
    /// </summary>
    public static bool IsWellKnown(MessageDescriptor descriptor) => descriptor.File.Package == "google.protobuf";

    public JsonReadPlan PlanFor(MessageDescriptor descriptor) => _plans.GetOrAdd(descriptor, _build);

    /// <summary>Reads a non-empty body holding valid UTF-8.</summary>
    /// <exception cref="InvalidMessageException">The body is not a JSON message of this type.</exception>
    /// <exception cref="JsonException">The body is not JSON.</exception>
    /// <exception cref="InvalidProtocolBufferException">JsonParser refused a value it was handed (and its other exceptions).</exception>
    public IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor)
    {
        var input = new JsonInput(body, this);
        input.Reader.Read();
        var plan = PlanFor(descriptor);
        IMessage message;
        if (plan.IsNative)
        {
            if (input.Reader.TokenType != JsonTokenType.StartObject)
            {
                throw new InvalidMessageException($"The JSON body is not a valid {descriptor.Name}: expected an object.");
            }

            message = MessageFactory.Create(descriptor);
            plan.Read(ref input, message, depth: 1);
        }
        else
        {
            message = ParseDelegated(ref input, descriptor, depth: 1);
        }

        // The reader itself refuses anything but whitespace after the root value.
        input.Reader.Read();
        return message;
    }

    public void CheckDepth(int depth)
    {
        if (depth > MaxDepth)
        {
            throw new InvalidMessageException($"The JSON body has too many levels of nesting: messages nest deeper than {MaxDepth}.");
        }
    }

    /// <summary>The value at the current token read by JsonParser, as a message at nesting level <paramref name="depth"/>.</summary>
    public IMessage ParseDelegated(ref JsonInput input, MessageDescriptor descriptor, int depth)
    {
        CheckDepth(depth);

        // JsonParser does not count the message it starts with.
        var parser = _parsers[depth] ??= new JsonParser(JsonParser.Settings.Default
            .WithIgnoreUnknownFields(IgnoreUnknownFields)
            .WithTypeRegistry(_anyTypes.AnyTypes)
            .WithRecursionLimit(MaxDepth - depth));
        return parser.Parse(input.TakeRawValue(), descriptor);
    }
}

using System.Buffers;
using System.Collections.Concurrent;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Reads UTF-8 JSON into messages as Google.Protobuf's <see cref="JsonParser"/> would (same values accepted, same
/// refused, equal messages), straight from the body with <see cref="Utf8JsonReader"/>. Each message type gets a
/// <see cref="JsonReadPlan"/> once; the well-known types with JSON forms of their own (Timestamp, Duration, FieldMask,
/// Struct, Value, ListValue, Any, the wrappers) have readers of their own, so JsonParser, and the regular expressions
/// it carries, stay out of a Native AOT binary (docs/protocol.md section 9).
/// </summary>
internal sealed class JsonMessageReader
{
    private readonly ConcurrentDictionary<MessageDescriptor, JsonReadPlan> _plans = new();
    private readonly Func<MessageDescriptor, JsonReadPlan> _build;

    // Readers of whole messages of the well-known types with JSON forms of their own (the root, an Any's "value").
    private readonly ConcurrentDictionary<MessageDescriptor, JsonValueReader> _wellKnown = new();
    private readonly Func<MessageDescriptor, JsonValueReader> _buildWellKnown;

    // The options' Any types, built when an Any is first read (FormatOptions.AnyTypes).
    private readonly FormatOptions _anyTypes;

    public JsonMessageReader(bool ignoreUnknownFields, int maxDepth, ExtensionCatalog extensions, FormatOptions anyTypes)
    {
        _anyTypes = anyTypes;
        IgnoreUnknownFields = ignoreUnknownFields;
        Extensions = extensions;
        MaxDepth = maxDepth;
        _build = descriptor => new JsonReadPlan(this, descriptor, JsonReadPlanBuilder.Build(this, descriptor));
        _buildWellKnown = descriptor => JsonReadPlanBuilder.WellKnownMessageReader(this, descriptor)
            ?? throw new InvalidOperationException($"{descriptor.FullName} has no generated class to read JSON into.");
    }

    public bool IgnoreUnknownFields { get; }

    /// <summary>The extensions read as <c>[full.name]</c> keys.</summary>
    public ExtensionCatalog Extensions { get; }

    /// <summary>The deepest message nesting accepted, counting the root as 1.</summary>
    public int MaxDepth { get; }

    /// <summary>The message types an Any may hold: the service's registry.</summary>
    public TypeRegistry AnyTypes => _anyTypes.AnyTypes;

    public JsonReadPlan PlanFor(MessageDescriptor descriptor) => _plans.GetOrAdd(descriptor, _build);

    /// <summary>
    /// The reader of a whole message of a type without a plan (a well-known type with a JSON form of its own), whose
    /// values are the messages themselves.
    /// </summary>
    /// <exception cref="InvalidOperationException">The type has neither (no generated class).</exception>
    public JsonValueReader MessageReaderFor(MessageDescriptor descriptor) => _wellKnown.GetOrAdd(descriptor, _buildWellKnown);

    /// <summary>Reads a non-empty body holding valid UTF-8.</summary>
    /// <exception cref="InvalidMessageException">The body is not a JSON message of this type.</exception>
    /// <exception cref="JsonException">The body is not JSON.</exception>
    /// <exception cref="InvalidOperationException">A lone surrogate escape (from the reader), or a type without a generated class.</exception>
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
            try
            {
                // Level 0 "holds" the root, which the reader counts as level 1.
                MessageReaderFor(descriptor).TryReadBoxed(ref input, depth: 0, out var read);
                message = (IMessage)read;
            }
            catch (ValueFormatException ex)
            {
                throw new InvalidMessageException($"The JSON body is not a valid {descriptor.Name}: {ex.Message}", ex);
            }
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
}

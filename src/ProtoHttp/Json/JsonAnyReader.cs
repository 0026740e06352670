using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// google.protobuf.Any as the proto3 JSON mapping gives it (docs/protocol.md section 9): <c>"@type"</c> anywhere in
/// the object names the packed type through the service's type registry; an ordinary message's fields stand beside
/// it, a well-known type's JSON form under <c>"value"</c> (so an Any in an Any nests there). The packed message is
/// read with this reader's own rules and packed in protobuf's canonical order. An object without <c>"@type"</c> is
/// the empty Any, as in JsonParser. The packed message counts one level below the Any, as it nests in protobuf (and as
/// JsonParser counts a well-known type under "value").
/// </summary>
internal sealed class JsonAnyReader(JsonMessageReader owner) : JsonValueReader<IMessage>
{
    private static ReadOnlySpan<byte> TypeUrlName => "@type"u8;
    private static ReadOnlySpan<byte> ValueName => "value"u8;

    public override bool TryRead(ref JsonInput input, int depth, out IMessage value)
    {
        var level = depth + 1;
        owner.CheckDepth(level);
        ref var reader = ref input.Reader;
        if (reader.TokenType != JsonTokenType.StartObject)
        {
            throw JsonTokens.Unexpected(ref reader, "an object for Any");
        }

        var typeUrl = FindTypeUrl(reader);
        if (typeUrl is null)
        {
            JsonSkipping.Skip(ref reader);
            value = new Any();
            return true;
        }

        var typeName = Any.GetTypeName(typeUrl);
        if (typeName.Length == 0)
        {
            throw new ValueFormatException($"Invalid Any @type \"{typeUrl}\": expected a URL ending in /package.Type.");
        }

        var descriptor = owner.AnyTypes.Find(typeName)
            ?? throw new ValueFormatException($"Type registry has no descriptor for type name '{typeName}': an Any may hold the service's types (docs/protocol.md section 9, Any).");

        IMessage packed;
        if (AnyTypeRegistry.IsWellKnown(descriptor))
        {
            packed = ReadWellKnownBody(ref input, descriptor, level);
        }
        else
        {
            owner.CheckDepth(level + 1);
            packed = MessageFactory.Create(descriptor);
            owner.PlanFor(descriptor).Read(ref input, packed, level + 1, skipTypeUrl: true);
        }

        value = new Any { TypeUrl = typeUrl, Value = packed.ToByteString() };
        return true;
    }

    /// <summary>Whether the current property name is <c>@type</c>.</summary>
    public static bool IsTypeUrl(ref Utf8JsonReader reader) => reader.ValueTextEquals(TypeUrlName);

    // Looks ahead, on a copy of the reader, for this object's own "@type" (a nested object's does not count).
    private static string? FindTypeUrl(Utf8JsonReader scan)
    {
        while (scan.Read() && scan.TokenType == JsonTokenType.PropertyName)
        {
            var isTypeUrl = IsTypeUrl(ref scan);
            scan.Read();
            if (isTypeUrl)
            {
                return scan.TokenType == JsonTokenType.String
                    ? scan.GetString()
                    : throw new ValueFormatException("Expected a string for Any's @type.");
            }

            JsonSkipping.Skip(ref scan);
        }

        return null;
    }

    // A well-known type's body: "value" and, somewhere, "@type"; nothing else.
    private IMessage ReadWellKnownBody(ref JsonInput input, Google.Protobuf.Reflection.MessageDescriptor descriptor, int level)
    {
        ref var reader = ref input.Reader;
        IMessage? packed = null;
        var typeUrlSkipped = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            if (!typeUrlSkipped && IsTypeUrl(ref reader))
            {
                typeUrlSkipped = true;
                reader.Read();
                continue;
            }

            if (packed is not null || !reader.ValueTextEquals(ValueName))
            {
                throw new ValueFormatException($"An Any holding a {descriptor.Name} has only \"@type\" and \"value\".");
            }

            // null is each type's to take or refuse: a Value's NullValue, an empty wrapper, else refused.
            reader.Read();

            owner.MessageReaderFor(descriptor).TryReadBoxed(ref input, level, out var read);
            packed = (IMessage)read;
        }

        return packed ?? throw new ValueFormatException($"An Any holding a {descriptor.Name} needs its \"value\".");
    }
}

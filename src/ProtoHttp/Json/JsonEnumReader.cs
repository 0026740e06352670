using System.Text;
using System.Text.Json;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// An enum: a value's proto name or any integral number (known or not, as JsonParser allows), read as its int, which
/// protobuf's accessor unboxes as the field's enum type.
/// </summary>
internal sealed class JsonEnumReader(JsonMessageReader owner, EnumDescriptor descriptor) : JsonValueReader<int>
{
    private readonly (byte[] Name, int Number)[] _values = [.. descriptor.Values.Select(v => (Encoding.UTF8.GetBytes(v.Name), v.Number))];

    private readonly bool _isNullValue = descriptor.FullName == "google.protobuf.NullValue";

    public override bool AcceptsNull => _isNullValue;

    public override bool TryRead(ref JsonInput input, int depth, out int value)
    {
        ref var reader = ref input.Reader;
        int number;
        switch (reader.TokenType)
        {
            case JsonTokenType.String:
                if (!TryFind(ref reader, out number))
                {
                    // Unescaped here so that a lone surrogate is refused even when the name is then ignored.
                    _ = reader.ValueIsEscaped ? reader.GetString() : null;
                    value = default;
                    return owner.IgnoreUnknownFields
                        ? false
                        : throw new ValueFormatException($"Invalid enum value: \"{reader.GetString()}\" for enum type {descriptor.FullName}.");
                }

                break;
            case JsonTokenType.Number:
                number = (int)JsonNumberReading.Integer(ref reader, int.MinValue, 2147483648.0);
                break;
            case JsonTokenType.Null when _isNullValue:
                number = 0;
                break;
            default:
                throw JsonTokens.Unexpected(ref reader, $"a {descriptor.Name} name or number");
        }

        value = number;
        return true;
    }

    private bool TryFind(ref Utf8JsonReader reader, out int number)
    {
        foreach (var (name, n) in _values)
        {
            if (reader.ValueTextEquals(name))
            {
                number = n;
                return true;
            }
        }

        number = 0;
        return false;
    }
}

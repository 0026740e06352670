using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// FieldMask as the proto3 JSON mapping gives it: one string of comma-separated lowerCamel paths, each turned back
/// into its snake_case proto path (<c>"user.displayName,photo"</c>); empty entries are dropped and a path that
/// already holds an underscore is refused, as JsonParser does (docs/protocol.md section 9).
/// </summary>
internal sealed class JsonFieldMaskReader(JsonMessageReader owner) : JsonValueReader<IMessage>
{
    public override bool TryRead(ref JsonInput input, int depth, out IMessage value)
    {
        owner.CheckDepth(depth + 1);
        ref var reader = ref input.Reader;
        if (reader.TokenType != JsonTokenType.String)
        {
            throw JsonTokens.Unexpected(ref reader, "a field mask string");
        }

        value = Parse(reader.GetString()!);
        return true;
    }

    /// <exception cref="ValueFormatException">A path holds an underscore.</exception>
    public static FieldMask Parse(string text)
    {
        var mask = new FieldMask();
        foreach (var path in text.Split(',', StringSplitOptions.RemoveEmptyEntries))
        {
            mask.Paths.Add(ToSnakeCase(path));
        }

        return mask;
    }

    // The C++ converter's rules (and JsonParser's port of them): an upper-case letter becomes '_' and its lower case
    // after a lower-case character, or before one unless it starts the path ("GBike" -> "g_bike", "GoogleLAB" ->
    // "google_lab").
    private static string ToSnakeCase(string path)
    {
        var snake = new StringBuilder(path.Length * 2);
        var afterAny = false;
        var afterNonCapital = false;
        for (var i = 0; i < path.Length; i++)
        {
            var c = path[i];
            if (c is >= 'A' and <= 'Z')
            {
                if (afterAny && (afterNonCapital || i + 1 < path.Length && path[i + 1] is >= 'a' and <= 'z'))
                {
                    snake.Append('_');
                }

                snake.Append((char)(c + 'a' - 'A'));
                afterNonCapital = false;
            }
            else if (c == '_')
            {
                throw new ValueFormatException($"Invalid field mask path \"{path}\": a JSON path is lowerCamelCase, without '_'.");
            }
            else
            {
                snake.Append(c);
                afterNonCapital = true;
            }

            afterAny = true;
        }

        return snake.ToString();
    }
}

using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// Duration as the proto3 JSON mapping gives it: an optional <c>-</c>, 1 to 12 digits of seconds (no leading zero),
/// 0 to 9 fraction digits, then <c>s</c>, within ±315,576,000,000 seconds (docs/protocol.md section 9). As in
/// JsonParser, whose pattern ends in <c>$</c>, one trailing "\n" is accepted.
/// </summary>
internal sealed class JsonDurationReader(JsonMessageReader owner) : JsonValueReader<IMessage>
{
    public override bool TryRead(ref JsonInput input, int depth, out IMessage value)
    {
        // A Duration counts as a nested message, as every message does.
        owner.CheckDepth(depth + 1);
        ref var reader = ref input.Reader;
        if (reader.TokenType != JsonTokenType.String)
        {
            throw JsonTokens.Unexpected(ref reader, "a duration string such as \"1.5s\"");
        }

        Span<byte> buffer = stackalloc byte[64];
        var text = JsonText.Utf8(in reader, buffer);
        value = Parse(text) ?? throw new ValueFormatException($"Invalid Duration value: \"{Encoding.UTF8.GetString(text)}\".");
        return true;
    }

    /// <summary>The duration, or null when the text is not one.</summary>
    public static Duration? Parse(ReadOnlySpan<byte> text)
    {
        if (text.EndsWith("\n"u8))
        {
            text = text[..^1];
        }

        var negative = text.StartsWith("-"u8);
        if (negative)
        {
            text = text[1..];
        }

        var digits = text.IndexOfAnyExceptInRange((byte)'0', (byte)'9');
        if (digits is < 1 or > 12 || text[0] == '0' && digits > 1)
        {
            return null;
        }

        long seconds = 0;
        foreach (var digit in text[..digits])
        {
            seconds = seconds * 10 + (digit - '0');
        }

        text = text[digits..];
        var nanos = 0;
        if (text is [(byte)'.', ..])
        {
            var fraction = text[1..].IndexOfAnyExceptInRange((byte)'0', (byte)'9');
            if (fraction is < 1 or > 9)
            {
                return null;
            }

            for (var i = 0; i < 9; i++)
            {
                nanos = nanos * 10 + (i < fraction ? text[1 + i] - '0' : 0);
            }

            text = text[(fraction + 1)..];
        }

        if (text is not [(byte)'s'] || seconds > Duration.MaxSeconds)
        {
            return null;
        }

        return negative ? new Duration { Seconds = -seconds, Nanos = -nanos } : new Duration { Seconds = seconds, Nanos = nanos };
    }
}

using System.Buffers;
using System.Text.Unicode;

namespace ProtoHttp.Json;

/// <summary>Whether a body is well-formed UTF-8, across segment boundaries too, without decoding it.</summary>
internal static class Utf8Validation
{
    public static bool IsValid(ReadOnlySequence<byte> body)
    {
        if (body.IsSingleSegment)
        {
            return Utf8.IsValid(body.FirstSpan);
        }

        // A character split between segments is checked on its own from these bytes.
        Span<byte> split = stackalloc byte[4];
        var pending = 0;
        foreach (var segment in body)
        {
            var span = segment.Span;
            if (pending > 0)
            {
                var needed = Math.Min(SequenceLength(split[0]) - pending, span.Length);
                span[..needed].CopyTo(split[pending..]);
                pending += needed;
                span = span[needed..];
                if (pending < SequenceLength(split[0]))
                {
                    continue;
                }

                if (!Utf8.IsValid(split[..pending]))
                {
                    return false;
                }

                pending = 0;
            }

            var tail = IncompleteTail(span);
            span[^tail..].CopyTo(split);
            pending = tail;
            if (!Utf8.IsValid(span[..^tail]))
            {
                return false;
            }
        }

        return pending == 0;
    }

    // How many bytes at the end start a character the span does not finish (0 to 3).
    private static int IncompleteTail(ReadOnlySpan<byte> span)
    {
        for (var i = 1; i <= Math.Min(3, span.Length); i++)
        {
            var b = span[^i];
            if (b < 0x80)
            {
                return 0;
            }

            if (b >= 0xC0)
            {
                return SequenceLength(b) > i ? i : 0;
            }
        }

        return 0;
    }

    // The length a lead byte announces; an invalid lead byte counts as 2, which the validation then refuses.
    private static int SequenceLength(byte lead) => lead switch
    {
        >= 0xF0 => 4,
        >= 0xE0 => 3,
        _ => 2,
    };
}

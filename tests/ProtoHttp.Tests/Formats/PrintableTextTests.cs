namespace ProtoHttp.Tests.Formats;

public sealed class PrintableTextTests
{
    // Built here, not in attributes: attribute strings are stored as UTF-8, which cannot hold a lone surrogate.
    private static readonly (string Text, string Escaped, int FirstBad)[] Samples =
    [
        ("plain text", "plain text", -1),
        ("tab\tLF\nCR\r", "tab\tLF\nCR\r", -1),
        ("a\0b", "a\\u0000b", 1),
        ("bell\u0007", "bell\\u0007", 4),
        ("\uFFFE\uFFFF", "\\uFFFE\\uFFFF", 0),
        ("lone \uD800 high", "lone \\uD800 high", 5),
        ("lone \uDC00 low", "lone \\uDC00 low", 5),
        ("pair \uD83D\uDE00 kept", "pair \uD83D\uDE00 kept", -1),
        ("end \uD83D", "end \\uD83D", 4),
    ];

    public static TheoryData<int> SampleIndexes => new(Enumerable.Range(0, Samples.Length));

    [Theory]
    [MemberData(nameof(SampleIndexes))]
    public void TextSomeFormatCannotCarryIsEscapedVisibly(int sample)
    {
        var (text, escaped, firstBad) = Samples[sample];

        Assert.Equal(escaped, PrintableText.Escape(text));
        Assert.Equal(firstBad, PrintableText.IndexOfUncarryable(text));
    }
}

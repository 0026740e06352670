namespace ProtoHttp.Tests.Formats;

public sealed class PrintableTextTests
{
    // Built here, not in attributes: attribute strings are stored as UTF-8, which cannot hold a lone surrogate.
    private static readonly (string Text, string Escaped)[] Samples =
    [
        ("plain text", "plain text"),
        ("tab\tLF\nCR\r", "tab\tLF\nCR\r"),
        ("a\0b and \uFFFE: JSON and protobuf carry these", "a\0b and \uFFFE: JSON and protobuf carry these"),
        ("lone \uD800 high", "lone \\uD800 high"),
        ("lone \uDC00 low", "lone \\uDC00 low"),
        ("pair \uD83D\uDE00 kept", "pair \uD83D\uDE00 kept"),
        ("end \uD83D", "end \\uD83D"),
    ];

    public static TheoryData<int> SampleIndexes => new(Enumerable.Range(0, Samples.Length));

    [Theory]
    [MemberData(nameof(SampleIndexes))]
    public void LoneSurrogatesAreEscapedVisiblyAndNothingElse(int sample)
    {
        var (text, escaped) = Samples[sample];

        Assert.Equal(escaped, PrintableText.EscapeLoneSurrogates(text));
    }
}

using ProtoHttp.AspNetCore.Internal;

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

    private static readonly (string Text, string Replaced)[] XmlSamples =
    [
        ("plain text", "plain text"),
        ("tab\tLF\nCR\r kept", "tab\tLF\nCR\r kept"),
        ("a\0b\u0001c\u0007d\u001F", "a\uFFFDb\uFFFDc\uFFFDd\uFFFD"),
        ("\uFFFE and \uFFFF", "\uFFFD and \uFFFD"),
        ("lone \uD800 high, pair \uD83D\uDE00 kept", "lone \uFFFD high, pair \uD83D\uDE00 kept"),
    ];

    public static TheoryData<int> XmlSampleIndexes => new(Enumerable.Range(0, XmlSamples.Length));

    [Theory]
    [MemberData(nameof(XmlSampleIndexes))]
    public void CharactersXmlCannotCarryBecomeTheReplacementCharacter(int sample)
    {
        var (text, replaced) = XmlSamples[sample];

        Assert.Equal(replaced, PrintableText.ReplaceUnwritableInXml(text));
    }

    [Fact]
    public void EveryLoneCharacterIsKeptExactlyWhenXmlConvertSaysXmlCarriesIt()
    {
        for (var c = char.MinValue; ; c++)
        {
            var expected = System.Xml.XmlConvert.IsXmlChar(c) ? c : '\uFFFD';
            Assert.Equal(expected.ToString(), PrintableText.ReplaceUnwritableInXml(c.ToString()));
            if (c == char.MaxValue)
            {
                break;
            }
        }
    }
}

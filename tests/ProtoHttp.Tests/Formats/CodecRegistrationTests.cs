using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// What a registered codec may claim (docs/protocol.md section 2): a name that can end a media type, media types
/// without parameters, and no name, media type or suffix that is another codec's.
/// </summary>
public sealed class CodecRegistrationTests
{
    [Theory]
    [InlineData("b64")]
    [InlineData("x-proto.v1_2")]
    public void ANameOfASubtypesCharactersIsKeptLowerCase(string name)
    {
        Assert.Equal(name, new Claiming(name.ToUpperInvariant(), null, "text/x-test").Name);
    }

    [Theory]
    [InlineData("a b")]
    [InlineData("json+x")]
    [InlineData("x/y")]
    [InlineData("x;y")]
    public void ANameThatCannotEndAMediaTypeIsRefused(string name)
    {
        var error = Assert.Throws<ArgumentException>(() => new Claiming(name, null, "text/x-test"));

        Assert.StartsWith($"The codec name '{name}' must be letters, digits, '.', '-' or '_'", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("text")]
    [InlineData("text/")]
    [InlineData("/csv")]
    [InlineData("text/csv; charset=utf-8")]
    [InlineData("text/*")]
    public void AMediaTypeThatIsNotTypeSlashSubtypeIsRefused(string type)
    {
        var error = Assert.Throws<ArgumentException>(() => new Claiming("csv", null, type));

        Assert.StartsWith($"The codec 'csv' names the media type '{type}'; a media type is type/subtype", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ACodecWithoutMediaTypesIsRefused()
    {
        Assert.StartsWith("The codec 'csv' needs at least one media type.", Assert.Throws<ArgumentException>(() => new Claiming("csv", null)).Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("json", null, "text/csv", "Two codecs are named 'json'")]
    [InlineData("csv", null, "Application/Protobuf", "The media type 'application/protobuf' is both the 'proto' codec's and the 'csv' codec's")]
    [InlineData("csv", ".xml", "text/csv", "The suffix '.xml' is both the 'xml' codec's and the 'csv' codec's")]
    [InlineData("csv", ".c-s-v", "text/csv", "The 'csv' codec's suffix '.c-s-v' must be a dot and letters or digits")]
    public void AClashWithABuiltInCodecIsRefused(string name, string? suffix, string type, string expected)
    {
        var error = Assert.Throws<InvalidOperationException>(() => new MessageCodecs(FormatOptions.Default, [new Claiming(name, suffix, type)]));

        Assert.StartsWith(expected, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AnAddedCodecComesAfterTheBuiltInOnesInEveryList()
    {
        var codecs = new MessageCodecs(FormatOptions.Default, [new Claiming("csv", ".csv", "text/csv", "application/csv")]);

        Assert.Equal(["proto", "json", "xml", "form", "csv"], codecs.All.Select(codec => codec.Name));
        Assert.Equal(["text/csv", "application/csv"], codecs.Writable.Skip(codecs.Writable.Length - 2).Select(type => type.MediaType));
        Assert.EndsWith(", application/x-www-form-urlencoded, text/csv, application/csv", codecs.AcceptPost, StringComparison.Ordinal);
        Assert.Equal("csv", codecs.MatchContentType("application/csv").Codec?.Name);
        Assert.Equal("text/csv", codecs.Canonical(codecs.All[^1]).MediaType);
    }

    private sealed class Claiming : MessageCodec
    {
        public Claiming(string name, string? suffix, params string[] mediaTypes)
            : base(name, mediaTypes)
        {
            Suffix = suffix;
        }

        public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor) => throw new NotSupportedException();

        public override void Write(IMessage message, IBufferWriter<byte> output) => throw new NotSupportedException();
    }
}

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// A registry without the XML codec, as an app that turns the ProtoHttp.Xml.IsSupported feature switch off gets it
/// (README, "Native AOT"; .ci/native-no-xml.sh checks the published app): XML is then a type no codec reads or writes.
/// </summary>
public sealed class XmlLeftOutTests
{
    private readonly MessageCodecs _codecs = new(FormatOptions.Default, [], xml: null);

    [Fact]
    public void TheOtherBuiltInCodecsKeepTheirFormats()
    {
        Assert.Equal(["proto", "json", "form"], _codecs.All.Select(codec => codec.Name));
        Assert.Same(MessageCodecs.Protobuf, _codecs.Codec(CodecNames.Protobuf));
        Assert.Equal("json", _codecs.Codec(CodecNames.Json).Name);
        Assert.Equal("form", _codecs.Codec(CodecNames.Form).Name);
        Assert.Equal(MediaTypes.Json, _codecs.Canonical(CodecNames.Form).MediaType);
        Assert.Equal(MediaTypes.Protobuf, _codecs.Canonical(CodecNames.Protobuf).MediaType);
    }

    [Fact]
    public void XmlHasNoReaderNorWriter()
    {
        Assert.Null(_codecs.Find(CodecNames.Xml));
        Assert.DoesNotContain(_codecs.Writable, type => type.MediaType.Contains("xml", StringComparison.Ordinal));
        Assert.DoesNotContain("xml", _codecs.AcceptPost, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("application/xml")]
    [InlineData("text/xml")]
    [InlineData("application/soap+xml")]
    public void AnXmlBodyIsOfAnUnknownType(string contentType)
    {
        Assert.Equal(ContentTypeStatus.Unknown, _codecs.MatchContentType(contentType).Status);
    }

    [Fact]
    public void AskingForTheXmlCodecSaysTheSwitchLeftItOut()
    {
        var error = Assert.Throws<InvalidOperationException>(() => _codecs.Codec(CodecNames.Xml));

        Assert.Contains("ProtoHttp.Xml.IsSupported", error.Message, StringComparison.Ordinal);
        Assert.Contains("ProtoHttp.Xml.IsSupported", Assert.Throws<InvalidOperationException>(() => _codecs.Canonical(CodecNames.Xml)).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void TheDefaultRegistryHasXml()
    {
        var codecs = new MessageCodecs(FormatOptions.Default);

        Assert.Equal("xml", codecs.Codec(CodecNames.Xml).Name);
        Assert.Equal(ContentTypeStatus.Readable, codecs.MatchContentType("application/xml").Status);
    }
}

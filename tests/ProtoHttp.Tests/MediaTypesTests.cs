namespace ProtoHttp.Tests;

public sealed class MediaTypesTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);

    [Theory]
    [InlineData("application/x-protobuf", CodecNames.Protobuf)]
    [InlineData("application/protobuf", CodecNames.Protobuf)]
    [InlineData("application/vnd.google.protobuf", CodecNames.Protobuf)]
    [InlineData("Application/Proto", CodecNames.Protobuf)]
    [InlineData("application/json", CodecNames.Json)]
    [InlineData("application/json; charset=utf-8", CodecNames.Json)]
    [InlineData("application/json; charset=\"UTF-8\"", CodecNames.Json)]
    [InlineData("text/json", CodecNames.Json)]
    [InlineData("application/problem+json", CodecNames.Json)]
    [InlineData("application/xml", CodecNames.Xml)]
    [InlineData("text/xml; charset=utf-8", CodecNames.Xml)]
    [InlineData("application/atom+xml", CodecNames.Xml)]
    [InlineData("application/x-www-form-urlencoded", CodecNames.Form)]
    public void ReadsEveryRequestTypeOfSection2(string contentType, string expected)
    {
        var match = Codecs.MatchContentType(contentType);

        Assert.Equal(ContentTypeStatus.Readable, match.Status);
        Assert.Same(Codecs.Codec(expected), match.Codec);
    }

    [Theory]
    [InlineData("image/png")]
    [InlineData("text/plain")]
    [InlineData("multipart/form-data; boundary=x")]
    [InlineData("json")]
    public void RefusesUnknownTypes(string contentType)
    {
        Assert.Equal(ContentTypeStatus.Unknown, Codecs.MatchContentType(contentType).Status);
    }

    [Theory]
    [InlineData("application/json; charset=iso-8859-1")]
    [InlineData("text/xml; charset=utf-16")]
    public void RefusesCharsetsOtherThanUtf8(string contentType)
    {
        Assert.Equal(ContentTypeStatus.UnsupportedCharset, Codecs.MatchContentType(contentType).Status);
    }

    [Fact]
    public void ASpellingSeenBeforeMatchesAsItDidTheFirstTime()
    {
        // One registry remembers the last spelling each codec was read from; what it answers must never differ from
        // what a registry that has seen nothing answers, whatever came before (other codecs, other parameters, case).
        string[] spellings =
        [
            "application/json", "application/json; charset=iso-8859-1", "APPLICATION/JSON", "application/json",
            "application/x-protobuf", "application/json; charset=iso-8859-1", "text/plain", "application/json; charset=utf-8",
            "application/problem+json", "application/x-protobuf", "application/xml", "text/xml; charset=utf-16",
            "application/xml", "application/x-www-form-urlencoded", "application/json", "image/png", "application/json",
        ];
        var remembering = new MessageCodecs(FormatOptions.Default);

        foreach (var contentType in spellings.Concat(spellings.Reverse()))
        {
            var fresh = new MessageCodecs(FormatOptions.Default).MatchContentType(contentType);
            var seen = remembering.MatchContentType(contentType);

            Assert.Equal(fresh.Status, seen.Status);
            Assert.Equal(fresh.Codec?.Name, seen.Codec?.Name);
        }
    }
}

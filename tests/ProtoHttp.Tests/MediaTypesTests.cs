namespace ProtoHttp.Tests;

public sealed class MediaTypesTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);

    [Theory]
    [InlineData("application/x-protobuf", MessageFormat.Protobuf)]
    [InlineData("application/protobuf", MessageFormat.Protobuf)]
    [InlineData("application/vnd.google.protobuf", MessageFormat.Protobuf)]
    [InlineData("Application/Proto", MessageFormat.Protobuf)]
    [InlineData("application/json", MessageFormat.Json)]
    [InlineData("application/json; charset=utf-8", MessageFormat.Json)]
    [InlineData("application/json; charset=\"UTF-8\"", MessageFormat.Json)]
    [InlineData("text/json", MessageFormat.Json)]
    [InlineData("application/problem+json", MessageFormat.Json)]
    [InlineData("application/xml", MessageFormat.Xml)]
    [InlineData("text/xml; charset=utf-8", MessageFormat.Xml)]
    [InlineData("application/atom+xml", MessageFormat.Xml)]
    [InlineData("application/x-www-form-urlencoded", MessageFormat.Form)]
    public void ReadsEveryRequestTypeOfSection2(string contentType, MessageFormat expected)
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
}

using Microsoft.Extensions.Primitives;
using ProtoHttp.AspNetCore.Negotiation;
namespace ProtoHttp.Tests;

public sealed class AcceptNegotiatorTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);

    [Theory]
    [InlineData(null, CodecNames.Protobuf, "application/x-protobuf")]
    [InlineData(null, CodecNames.Json, "application/json")]
    [InlineData("*/*", CodecNames.Json, "application/json")]
    [InlineData("*/*", CodecNames.Protobuf, "application/x-protobuf")]
    [InlineData("*/*", CodecNames.Xml, "application/xml")]
    [InlineData("application/vnd.google.protobuf, */*", CodecNames.Json, "application/vnd.google.protobuf")]
    [InlineData("text/*", CodecNames.Json, "text/json")]
    [InlineData("text/*", CodecNames.Xml, "text/xml")]
    [InlineData("text/*", CodecNames.Protobuf, "text/json")]
    [InlineData("application/*", CodecNames.Protobuf, "application/x-protobuf")]
    [InlineData("application/*", CodecNames.Json, "application/json")]
    [InlineData("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", CodecNames.Json, "application/xml")]
    [InlineData("application/json;q=0.5, application/x-protobuf;q=0.6", CodecNames.Json, "application/x-protobuf")]
    [InlineData("application/json;q=0, */*", CodecNames.Json, "text/json")]
    [InlineData("APPLICATION/JSON", CodecNames.Protobuf, "application/json")]
    [InlineData("text/json, application/json", CodecNames.Protobuf, "application/json")]
    [InlineData("application/proto;q=1, */*;q=1", CodecNames.Json, "application/proto")]
    [InlineData("garbage", CodecNames.Json, "application/json")]
    public void ChoosesTheMediaTypeProtocolSection3Names(string? accept, string own, string expected)
    {
        var chosen = AcceptNegotiator.Negotiate(Codecs, new StringValues(accept), Codecs.Codec(own));

        Assert.NotNull(chosen);
        Assert.Equal(expected, chosen.MediaType);
    }

    [Theory]
    [InlineData("image/png")]
    [InlineData("text/html")]
    [InlineData("application/json;q=0")]
    [InlineData("*/*;q=0")]
    [InlineData("application/xhtml+xml")]
    public void ReturnsNullWhenNothingWritableIsAcceptable(string accept)
    {
        Assert.Null(AcceptNegotiator.Negotiate(Codecs, new StringValues(accept), Codecs.Codec(CodecNames.Json)));
    }

    [Fact]
    public void TextFormatsSayCharsetUtf8AndProtobufDoesNot()
    {
        Assert.Equal("application/json; charset=utf-8", AcceptNegotiator.Negotiate(Codecs, new StringValues("application/json"), Codecs.Codec(CodecNames.Json))!.ContentType);
        Assert.Equal("application/x-protobuf", AcceptNegotiator.Negotiate(Codecs, new StringValues("application/x-protobuf"), Codecs.Codec(CodecNames.Json))!.ContentType);
    }

    [Fact]
    public void AClientSendingANewAcceptOnEveryCallStillGetsRightAnswersPastTheCacheBound()
    {
        // More distinct headers than the cache keeps (1,024): the ones past the bound are parsed every time, not lost.
        for (var i = 0; i < 3000; i++)
        {
            var accept = $"application/x-client{i}, application/json;q=0.9, application/x-protobuf;q=0.5";

            Assert.Equal("application/json", AcceptNegotiator.Negotiate(Codecs, new StringValues(accept), Codecs.Codec(CodecNames.Protobuf))!.MediaType);
        }
    }
}

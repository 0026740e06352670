using Microsoft.Extensions.Primitives;
using ProtoHttp.AspNetCore.Negotiation;
namespace ProtoHttp.Tests;

public sealed class AcceptNegotiatorTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);

    [Theory]
    [InlineData(null, MessageFormat.Protobuf, "application/x-protobuf")]
    [InlineData(null, MessageFormat.Json, "application/json")]
    [InlineData("*/*", MessageFormat.Json, "application/json")]
    [InlineData("*/*", MessageFormat.Protobuf, "application/x-protobuf")]
    [InlineData("*/*", MessageFormat.Xml, "application/xml")]
    [InlineData("application/vnd.google.protobuf, */*", MessageFormat.Json, "application/vnd.google.protobuf")]
    [InlineData("text/*", MessageFormat.Json, "text/json")]
    [InlineData("text/*", MessageFormat.Xml, "text/xml")]
    [InlineData("text/*", MessageFormat.Protobuf, "text/json")]
    [InlineData("application/*", MessageFormat.Protobuf, "application/x-protobuf")]
    [InlineData("application/*", MessageFormat.Json, "application/json")]
    [InlineData("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", MessageFormat.Json, "application/xml")]
    [InlineData("application/json;q=0.5, application/x-protobuf;q=0.6", MessageFormat.Json, "application/x-protobuf")]
    [InlineData("application/json;q=0, */*", MessageFormat.Json, "text/json")]
    [InlineData("APPLICATION/JSON", MessageFormat.Protobuf, "application/json")]
    [InlineData("text/json, application/json", MessageFormat.Protobuf, "application/json")]
    [InlineData("application/proto;q=1, */*;q=1", MessageFormat.Json, "application/proto")]
    [InlineData("garbage", MessageFormat.Json, "application/json")]
    public void ChoosesTheMediaTypeProtocolSection3Names(string? accept, MessageFormat own, string expected)
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
        Assert.Null(AcceptNegotiator.Negotiate(Codecs, new StringValues(accept), Codecs.Codec(MessageFormat.Json)));
    }

    [Fact]
    public void TextFormatsSayCharsetUtf8AndProtobufDoesNot()
    {
        Assert.Equal("application/json; charset=utf-8", AcceptNegotiator.Negotiate(Codecs, new StringValues("application/json"), Codecs.Codec(MessageFormat.Json))!.ContentType);
        Assert.Equal("application/x-protobuf", AcceptNegotiator.Negotiate(Codecs, new StringValues("application/x-protobuf"), Codecs.Codec(MessageFormat.Json))!.ContentType);
    }

    [Fact]
    public void AClientSendingANewAcceptOnEveryCallStillGetsRightAnswersPastTheCacheBound()
    {
        // More distinct headers than the cache keeps (1,024): the ones past the bound are parsed every time, not lost.
        for (var i = 0; i < 3000; i++)
        {
            var accept = $"application/x-client{i}, application/json;q=0.9, application/x-protobuf;q=0.5";

            Assert.Equal("application/json", AcceptNegotiator.Negotiate(Codecs, new StringValues(accept), Codecs.Codec(MessageFormat.Protobuf))!.MediaType);
        }
    }
}

using ProtoHttp.Streaming;

namespace ProtoHttp.Tests.Streaming;

public sealed class StreamAcceptNegotiatorTests
{
    [Theory]
    [InlineData(null, "Lines", "application/x-ndjson")]
    [InlineData(null, "ConnectProto", "application/connect+proto")]
    [InlineData("*/*", "ConnectJson", "application/connect+json")]
    [InlineData("*/*", "Events", "text/event-stream")]
    [InlineData("text/*", "Lines", "text/event-stream")]
    [InlineData("application/*", "Events", "application/connect+proto")]
    [InlineData("text/event-stream", "ConnectProto", "text/event-stream")]
    [InlineData("application/jsonl", "Lines", "application/jsonl")]
    [InlineData("application/json", "ConnectProto", "application/x-ndjson")]
    [InlineData("application/x-protobuf", "Lines", "application/connect+proto")]
    [InlineData("application/x-ndjson;q=0.5, text/event-stream;q=0.9", "Lines", "text/event-stream")]
    [InlineData("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "Events", "text/event-stream")]
    [InlineData("garbage", "Lines", "application/x-ndjson")]
    public void ChoosesTheStreamSection9Names(string? accept, string own, string expected)
    {
        var chosen = StreamAcceptNegotiator.Negotiate(accept is null ? [] : [accept], Enum.Parse<StreamFormat>(own));

        Assert.NotNull(chosen);
        Assert.Equal(expected, chosen.ContentType);
    }

    [Theory]
    [InlineData("application/xml")]
    [InlineData("text/html")]
    [InlineData("text/event-stream;q=0")]
    [InlineData("*/*;q=0")]
    public void ReturnsNullWhenNoStreamIsAcceptable(string accept)
    {
        Assert.Null(StreamAcceptNegotiator.Negotiate([accept], StreamFormat.Lines));
    }

    [Theory]
    [InlineData("application/connect+proto", "ConnectProto")]
    [InlineData("Application/Connect+JSON; charset=utf-8", "ConnectJson")]
    public void EnvelopeRequestTypesAreRecognized(string contentType, string format)
    {
        Assert.Equal(Enum.Parse<StreamFormat>(format), StreamMediaTypes.EnvelopeType(contentType)?.Format);
    }

    [Theory]
    [InlineData("application/x-protobuf")]
    [InlineData("application/json")]
    [InlineData(null)]
    public void OtherRequestTypesAreNotEnvelopes(string? contentType)
    {
        Assert.Null(StreamMediaTypes.EnvelopeType(contentType));
    }
}

using Microsoft.Extensions.Primitives;
using ProtoHttp.AspNetCore.Negotiation;
using ProtoHttp.Streaming;

namespace ProtoHttp.Tests.Streaming;

public sealed class StreamAcceptNegotiatorTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);
    private static readonly StreamAcceptNegotiator Negotiator = new(Codecs);

    // The own stream by the name of its framing and codec, as the section 9 table names them.
    private static StreamMediaType Own(string name) => name switch
    {
        "Lines" => Negotiator.Lines,
        "Events" => Negotiator.Events,
        "ConnectProto" => Negotiator.Envelopes(Codecs.Codec(CodecNames.Protobuf)),
        _ => Negotiator.Envelopes(Codecs.Codec(CodecNames.Json)),
    };

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
        var chosen = Negotiator.Negotiate(new StringValues(accept), Own(own));

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
        Assert.Null(Negotiator.Negotiate(new StringValues(accept), Negotiator.Lines));
    }

    [Theory]
    [InlineData("application/connect+proto", CodecNames.Protobuf)]
    [InlineData("Application/Connect+JSON; charset=utf-8", CodecNames.Json)]
    public void EnvelopeRequestTypesAreRecognized(string contentType, string codec)
    {
        var type = Negotiator.EnvelopeType(contentType, Codecs);

        Assert.Equal(StreamFormat.Envelopes, type?.Format);
        Assert.Same(Codecs.Codec(codec), type?.Codec);
    }

    [Theory]
    [InlineData("application/x-protobuf")]
    [InlineData("application/json")]
    [InlineData(null)]
    public void OtherRequestTypesAreNotEnvelopes(string? contentType)
    {
        Assert.Null(Negotiator.EnvelopeType(contentType, Codecs));
    }
}

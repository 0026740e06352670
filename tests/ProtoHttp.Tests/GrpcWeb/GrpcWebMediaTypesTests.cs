using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.GrpcWeb;

/// <summary>Which Content-Types are gRPC-Web's, and the codec, text mode and response type each names.</summary>
public sealed class GrpcWebMediaTypesTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);

    [Theory]
    [InlineData("application/grpc-web", CodecNames.Protobuf, false, "application/grpc-web")]
    [InlineData("application/grpc-web+proto", CodecNames.Protobuf, false, "application/grpc-web+proto")]
    [InlineData("Application/GRPC-Web+Proto", CodecNames.Protobuf, false, "application/grpc-web+proto")]
    [InlineData("application/grpc-web+json", CodecNames.Json, false, "application/grpc-web+json")]
    [InlineData("application/grpc-web+json; charset=utf-8", CodecNames.Json, false, "application/grpc-web+json")]
    [InlineData("application/grpc-web-text", CodecNames.Protobuf, true, "application/grpc-web-text")]
    [InlineData("application/grpc-web-text+proto", CodecNames.Protobuf, true, "application/grpc-web-text+proto")]
    [InlineData("APPLICATION/GRPC-WEB", CodecNames.Protobuf, false, "application/grpc-web")]
    [InlineData("Application/Grpc-Web+JSON; Charset=UTF-8", CodecNames.Json, false, "application/grpc-web+json")]
    [InlineData("application/GRPC-WEB-TEXT", CodecNames.Protobuf, true, "application/grpc-web-text")]
    [InlineData("Application/grpc-web-Text+PROTO", CodecNames.Protobuf, true, "application/grpc-web-text+proto")]
    public void EachTypeNamesItsCodecAndMode(string contentType, string codec, bool text, string responseType)
    {
        var type = GrpcWebMediaTypes.Parse(contentType, Codecs);

        Assert.True(GrpcWebMediaTypes.IsGrpcWeb(contentType));
        Assert.Equal(new GrpcWebMediaType(Codecs.Codec(codec), text, responseType), type);
    }

    [Theory]
    [InlineData("application/grpc-web")]
    [InlineData("application/grpc-web+json")]
    [InlineData("application/grpc-web-text+proto")]
    public void APlainLowerCaseTypeIsAnsweredInTheRequestsOwnString(string contentType)
    {
        var type = GrpcWebMediaTypes.Parse(contentType, Codecs);

        Assert.Same(contentType, type!.ContentType);
    }

    [Theory]
    [InlineData("application/grpc-web+thrift")]
    [InlineData("Application/GRPC-Web-Text+JSON")]
    [InlineData("application/grpc-web+xml")]
    [InlineData("application/grpc-web+form")]
    [InlineData("application/grpc-web-text+json")]
    [InlineData("application/grpc-web-base64")]
    public void GrpcWebTypesWithoutACodecHereAreGrpcWebsToRefuse(string contentType)
    {
        Assert.True(GrpcWebMediaTypes.IsGrpcWeb(contentType));
        Assert.Null(GrpcWebMediaTypes.Parse(contentType, Codecs));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("application/grpc-webx")]
    [InlineData("application/proto")]
    [InlineData("application/connect+proto")]
    public void OtherTypesAreNotGrpcWeb(string? contentType)
    {
        Assert.False(GrpcWebMediaTypes.IsGrpcWeb(contentType));
        Assert.Null(GrpcWebMediaTypes.Parse(contentType, Codecs));
    }

    [Theory]
    [InlineData("application/grpc", CodecNames.Protobuf)]
    [InlineData("application/grpc+proto", CodecNames.Protobuf)]
    [InlineData("application/grpc+json", CodecNames.Json)]
    [InlineData("Application/GRPC+Json", CodecNames.Json)]
    public void GrpcTypesAreWhatGrpcDotnetsMiddlewareTranslatedGrpcWebInto(string contentType, string codec)
    {
        Assert.False(GrpcWebMediaTypes.IsGrpcWeb(contentType));
        Assert.Equal(
            new GrpcWebMediaType(Codecs.Codec(codec), Text: false, contentType.ToLowerInvariant(), Translated: true),
            GrpcWebMediaTypes.Parse(contentType, Codecs));
    }

    [Fact]
    public void TheTypesServedAreTheConnectCodecsOfTheRegistryTextOnlyForBinaryOnes()
    {
        Assert.Equal(
            ["application/grpc-web", "application/grpc-web+proto", "application/grpc-web+json", "application/grpc-web-text", "application/grpc-web-text+proto"],
            GrpcWebMediaTypes.All(Codecs));
    }
}

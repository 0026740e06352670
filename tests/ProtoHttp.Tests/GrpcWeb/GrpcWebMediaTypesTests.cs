using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.GrpcWeb;

/// <summary>Which Content-Types are gRPC-Web's, and the codec, text mode and response type each names.</summary>
public sealed class GrpcWebMediaTypesTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);

    [Theory]
    [InlineData("application/grpc-web", MessageFormat.Protobuf, false, "application/grpc-web")]
    [InlineData("application/grpc-web+proto", MessageFormat.Protobuf, false, "application/grpc-web+proto")]
    [InlineData("Application/GRPC-Web+Proto", MessageFormat.Protobuf, false, "application/grpc-web+proto")]
    [InlineData("application/grpc-web+json", MessageFormat.Json, false, "application/grpc-web+json")]
    [InlineData("application/grpc-web+json; charset=utf-8", MessageFormat.Json, false, "application/grpc-web+json")]
    [InlineData("application/grpc-web-text", MessageFormat.Protobuf, true, "application/grpc-web-text")]
    [InlineData("application/grpc-web-text+proto", MessageFormat.Protobuf, true, "application/grpc-web-text+proto")]
    [InlineData("APPLICATION/GRPC-WEB", MessageFormat.Protobuf, false, "application/grpc-web")]
    [InlineData("Application/Grpc-Web+JSON; Charset=UTF-8", MessageFormat.Json, false, "application/grpc-web+json")]
    [InlineData("application/GRPC-WEB-TEXT", MessageFormat.Protobuf, true, "application/grpc-web-text")]
    [InlineData("Application/grpc-web-Text+PROTO", MessageFormat.Protobuf, true, "application/grpc-web-text+proto")]
    public void EachTypeNamesItsCodecAndMode(string contentType, MessageFormat codec, bool text, string responseType)
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
    [InlineData("application/grpc", MessageFormat.Protobuf)]
    [InlineData("application/grpc+proto", MessageFormat.Protobuf)]
    [InlineData("application/grpc+json", MessageFormat.Json)]
    [InlineData("Application/GRPC+Json", MessageFormat.Json)]
    public void GrpcTypesAreWhatGrpcDotnetsMiddlewareTranslatedGrpcWebInto(string contentType, MessageFormat codec)
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

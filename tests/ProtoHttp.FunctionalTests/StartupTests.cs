using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Services;
using ProtoHttp.FunctionalTests.Protos;
using SearchService.Services;

namespace ProtoHttp.FunctionalTests;

public sealed class StartupTests
{
    [Fact]
    public void MappingWithoutAddProtoHttpSaysWhatToAdd()
    {
        var app = WebApplication.CreateBuilder().Build();

        var error = Assert.Throws<InvalidOperationException>(() => app.MapProtoService<CatalogSearchService>());

        Assert.Equal("MapProtoService needs ProtoHttp's services: add builder.Services.AddProtoHttp() before building the application.", error.Message);
    }

    [Fact]
    public void MappingAClassThatIsNotAGeneratedServiceSaysHowToFixIt()
    {
        var builder = WebApplication.CreateBuilder();
        builder.Services.AddProtoHttp();
        var app = builder.Build();

        var error = Assert.Throws<InvalidOperationException>(() => app.MapProtoService<CallProbe>());

        Assert.Contains("derive it from the XxxBase class that Grpc.Tools generates", error.Message);
    }

    [Fact]
    public void AServiceWhoseProtoIsNotEmbeddedSaysHowToEmbedIt()
    {
        var builder = WebApplication.CreateBuilder();
        builder.Services.AddProtoHttp();
        var app = builder.Build();

        // The test project compiles ProtoService.proto only through the sample, which embeds it; NotEmbeddedService lives here.
        var error = Assert.Throws<InvalidOperationException>(() => app.MapProtoService<NotEmbeddedService>());

        Assert.Contains("<EmbeddedResource Include=\"path/to/not_embedded.proto\" LogicalName=\"not_embedded.proto\" />", error.Message);
    }

    [Fact]
    public void AnAnyTypeWithoutAGeneratedClassSaysWhichDescriptorToAdd()
    {
        // The same types, built from their bytes at run time: descriptors without classes.
        var files = Google.Protobuf.Reflection.FileDescriptor.BuildFromByteStrings(
            [Google.Protobuf.WellKnownTypes.AnyReflection.Descriptor.SerializedData, Protos.AnyEcho.AnyEchoReflection.Descriptor.SerializedData]);
        var builder = WebApplication.CreateBuilder();
        builder.Services.AddProtoHttp(o => o.AnyTypes.Add(files[1].MessageTypes[0]));
        var app = builder.Build();

        var error = Assert.Throws<InvalidOperationException>(() => app.MapProtoService<AnyEchoService>());

        Assert.Equal("ProtoHttpOptions.AnyTypes holds protohttp.tests.any.Item, which has no generated C# class: "
            + "add the descriptor of the class Grpc.Tools generates for it (Item.Descriptor).", error.Message);
    }

    [Theory]
    [InlineData("csv", ".csv", "application/json", "The media type 'application/json' is both the 'json' codec's and the 'csv' codec's: a media type names one codec.")]
    [InlineData("csv", ".csv", "TEXT/XML", "The media type 'text/xml' is both the 'xml' codec's and the 'csv' codec's: a media type names one codec.")]
    [InlineData("csv", ".JSON", "text/csv", "The suffix '.JSON' is both the 'json' codec's and the 'csv' codec's: a suffix forces one codec.")]
    [InlineData("Proto", ".csv", "text/csv", "Two codecs are named 'proto': give ClaimingCodec a name of its own.")]
    [InlineData("csv", "csv", "text/csv", "The 'csv' codec's suffix 'csv' must be a dot and letters or digits, e.g. '.csv'.")]
    public void ACodecThatClaimsABuiltInCodecsTypeSuffixOrNameStopsTheMapping(string name, string suffix, string mediaType, string expected)
    {
        var builder = WebApplication.CreateBuilder();
        builder.Services.AddProtoHttp(o => o.Codecs.Add(new ClaimingCodec(name, suffix, mediaType)));
        var app = builder.Build();

        var error = Assert.Throws<InvalidOperationException>(() => app.MapProtoService<CatalogSearchService>());

        Assert.Equal(expected, error.Message);
    }

    [Fact]
    public void TwoAddedCodecsThatClaimOneMediaTypeOrSuffixStopTheMapping()
    {
        var sameType = WebApplication.CreateBuilder();
        sameType.Services.AddProtoHttp(o =>
        {
            o.Codecs.Add(new ClaimingCodec("csv", ".csv", "text/csv", "application/csv"));
            o.Codecs.Add(new ClaimingCodec("tsv", ".tsv", "text/tab-separated-values", "application/csv"));
        });
        var sameSuffix = WebApplication.CreateBuilder();
        sameSuffix.Services.AddProtoHttp(o =>
        {
            o.Codecs.Add(new ClaimingCodec("csv", ".csv", "text/csv"));
            o.Codecs.Add(new ClaimingCodec("tsv", ".csv", "text/tab-separated-values"));
        });

        var typeError = Assert.Throws<InvalidOperationException>(() => sameType.Build().MapProtoService<CatalogSearchService>());
        var suffixError = Assert.Throws<InvalidOperationException>(() => sameSuffix.Build().MapProtoService<CatalogSearchService>());

        Assert.Equal("The media type 'application/csv' is both the 'csv' codec's and the 'tsv' codec's: a media type names one codec.", typeError.Message);
        Assert.Equal("The suffix '.csv' is both the 'csv' codec's and the 'tsv' codec's: a suffix forces one codec.", suffixError.Message);
    }

    [Theory]
    [InlineData("custom", "/custom/Context")]
    [InlineData("/api/v1/", "/api/v1/Context")]
    public async Task ThePrefixCanBeChanged(string prefix, string path)
    {
        await using var server = await SampleServer.StartAsync(map: app => app.MapProtoService<ScriptedTestService>(prefix));

        using var response = await server.Client.SendAsync(Wire.Post(path, new ContextRequest(), "application/json"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("/protohttp.tests.TestService/Context", (await Wire.ReadAsync<ContextReply>(response)).Method);
    }
}

using System.Net;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests;

public sealed class ProtoFileTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>
{
    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData("/ProtoService.proto", "ProtoService.proto")]
    [InlineData("/Northwind.proto", "Northwind.proto")]
    public async Task ServesTheProtoFileByteForByte(string path, string file)
    {
        using var response = await _server.Client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/plain; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        var expected = await File.ReadAllBytesAsync(Path.Combine(RepositoryRoot.Path, "protos", file));
        Assert.Equal(expected, await response.Content.ReadAsByteArrayAsync());
    }

    [Theory]
    [InlineData("application/x-protobuf")]
    [InlineData("application/vnd.google.protobuf, text/plain;q=0.5")]
    public async Task AProtobufAcceptGetsTheFileDescriptorSetWithItsImportsFirst(string accept)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/Northwind.proto");
        request.Headers.TryAddWithoutValidation("Accept", accept);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/x-protobuf", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("Accept", response.Headers.Vary);
        var set = Google.Protobuf.Reflection.FileDescriptorSet.Parser.ParseFrom(await response.Content.ReadAsByteArrayAsync());
        Assert.Equal(["google/protobuf/timestamp.proto", "Northwind.proto"], set.File.Select(f => f.Name));
        var service = Assert.Single(set.File[1].Service);
        Assert.Equal("NorthwindService", service.Name);
        Assert.Equal(["GetOrders", "Roundtrip", "FindOrders"], service.Method.Select(m => m.Name));
    }

    [Fact]
    public async Task AJsonAcceptGetsTheFileDescriptorSetInJson()
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/ProtoService.proto");
        request.Headers.TryAddWithoutValidation("Accept", "application/json");

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        var set = Google.Protobuf.JsonParser.Default.Parse<Google.Protobuf.Reflection.FileDescriptorSet>(await response.Content.ReadAsStringAsync());
        var file = Assert.Single(set.File);
        Assert.Equal("ProtoService.proto", file.Name);
        Assert.Equal("SearchRequest", file.MessageType[0].Name);
    }

    [Theory]
    [InlineData("*/*")]
    [InlineData("text/plain, application/x-protobuf;q=0.5")]
    // A browser's Accept gets the explorer page, where the app maps the explorer (ExplorerTests); one that weighs
    // HTML below the text still gets the text.
    [InlineData("text/html;q=0.5,application/xml;q=0.9,*/*;q=0.8")]
    [InlineData("application/x-protobuf;q=0")]
    public async Task OtherAcceptsStillGetTheSource(string accept)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/ProtoService.proto");
        request.Headers.TryAddWithoutValidation("Accept", accept);

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal("text/plain; charset=utf-8", response.Content.Headers.ContentType?.ToString());
    }

    [Fact]
    public async Task KeepsTheCommentsAsWritten()
    {
        var text = await _server.Client.GetStringAsync("/ProtoService.proto");

        Assert.Contains("required string error_text = 536870911; //max field-id", text);
    }

    [Fact]
    public async Task HeadAnswersTheLengthWithoutTheBody()
    {
        using var response = await _server.Client.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/ProtoService.proto"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.True(response.Content.Headers.ContentLength > 100);
        Assert.Empty(await response.Content.ReadAsByteArrayAsync());
    }

    [Theory]
    [InlineData("POST")]
    [InlineData("PUT")]
    [InlineData("DELETE")]
    public async Task OtherVerbsAnswer405WithAllow(string verb)
    {
        using var response = await _server.Client.SendAsync(new HttpRequestMessage(new HttpMethod(verb), "/ProtoService.proto"));

        Assert.Equal(HttpStatusCode.MethodNotAllowed, response.StatusCode);
        Assert.Equal("GET, HEAD", string.Join(", ", response.Content.Headers.Allow));
        var error = await Wire.ReadErrorAsync(response);
        Assert.Equal("UNIMPLEMENTED", error.Code);
        Assert.Contains(verb, error.ErrorText);
    }
}

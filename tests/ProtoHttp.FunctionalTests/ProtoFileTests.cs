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

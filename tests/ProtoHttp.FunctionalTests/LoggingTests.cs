using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>Debug for negotiation, Information for client faults, Error only for service exceptions.</summary>
public sealed class LoggingTests : IAsyncLifetime
{
    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync();

    public async Task DisposeAsync() => await _server.DisposeAsync();

    [Fact]
    public async Task NegotiationLogsAtDebug()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/ProtoService.proto/Search", new SearchRequest { Query = "chai" }, "application/json", "application/x-protobuf"));

        var entry = Assert.Single(_server.Logs.Entries, e => e.EventId.Name == "FormatChosen");
        Assert.Equal(LogLevel.Debug, entry.Level);
        Assert.Equal("Search: request in Json, response as application/x-protobuf.", entry.Message);
    }

    [Fact]
    public async Task ClientFaultsLogAtInformationAndNeverAtError()
    {
        using var notFound = await _server.Client.PostAsync("/ProtoService.proto/Nope", content: null);
        using var badBody = await _server.Client.SendAsync(Wire.Post("/ProtoService.proto/Search", new SearchRequest(), "application/json"));
        using var rpc = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Code = "NOT_FOUND", Detail = "gone" }, "application/json"));

        Assert.Equal(LogLevel.Information, Assert.Single(_server.Logs.Entries, e => e.EventId.Name == "CallRejected").Level);
        Assert.Equal("Search: the request could not be read: Missing required field 'query'.", Assert.Single(_server.Logs.Entries, e => e.EventId.Name == "BadRequestBody").Message);
        Assert.Equal(LogLevel.Information, Assert.Single(_server.Logs.Entries, e => e.EventId.Name == "RpcStatus").Level);
        Assert.Empty(_server.Logs.Errors);
    }

    [Fact]
    public async Task AServiceExceptionLogsAtErrorWithTheException()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Detail = "boom" }, "application/json"));

        var entry = Assert.Single(_server.Logs.Errors);
        Assert.Equal("ServiceFailed", entry.EventId.Name);
        Assert.Equal("Fail: the service threw an exception.", entry.Message);
        Assert.IsType<InvalidOperationException>(entry.Exception);
    }
}

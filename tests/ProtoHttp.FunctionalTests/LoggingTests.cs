using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Logging;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoService;

namespace ProtoHttp.FunctionalTests;

/// <summary>Debug for negotiation, Information for client faults, Error for the app's exceptions and, apart, for ProtoHttp's own faults.</summary>
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
        Assert.Equal("Search: request in json, response as application/x-protobuf.", entry.Message);
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
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AServiceExceptionLogsAtErrorWithTheException()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/Fail", new FailRequest { Detail = "boom" }, "application/json"));

        var entry = Assert.Single(await _server.Logs.ErrorsOnceEndedAsync());
        Assert.Equal("ServiceFailed", entry.EventId.Name);
        Assert.Equal("Fail: the service threw an exception.", entry.Message);
        Assert.IsType<InvalidOperationException>(entry.Exception);
    }

    [Fact]
    public async Task AServiceReturningNullIsA500AndAnErrorNamingTheMethod()
    {
        using var response = await _server.Client.SendAsync(Wire.Post("/test_service.proto/ReturnNull", new Protos.Empty(), "application/json"));

        await ErrorTests.AssertErrorAsync(response, System.Net.HttpStatusCode.InternalServerError, "INTERNAL", "The service returned no response message.");
        var entry = Assert.Single(await _server.Logs.ErrorsOnceEndedAsync());
        Assert.Equal("ServiceReturnedNull", entry.EventId.Name);
        Assert.Equal("ReturnNull: the service returned null instead of a response message.", entry.Message);
    }

    [Fact]
    public async Task AFaultInProtoHttpsPipelineIsNeverLoggedAsTheServices()
    {
        await using var server = await SampleServer.StartAsync(map: app => app.Use((context, next) =>
        {
            // A host whose request body breaks in a way no client input explains: the fault is on the server, not in the service.
            if (context.Request.Headers.ContainsKey("x-break-body"))
            {
                context.Request.Body = new BrokenStream();
            }

            return next(context);
        }));
        var request = Wire.Post("/test_service.proto/Echo", new Tree { Name = "x" }, "application/json");
        request.Headers.Add("x-break-body", "1");

        using var response = await server.Client.SendAsync(request);

        var error = await ErrorTests.AssertErrorAsync(response, System.Net.HttpStatusCode.InternalServerError, "INTERNAL");
        Assert.Equal("The server failed to handle the call; the fault is in ProtoHttp, not in the service.", error.ErrorText);
        var entry = Assert.Single(await server.Logs.ErrorsOnceEndedAsync());
        Assert.Equal("PipelineFailed", entry.EventId.Name);
        Assert.Equal("Echo: ProtoHttp failed to handle the call. This is a fault in ProtoHttp (or the host), not in the service.", entry.Message);
        Assert.IsType<NotSupportedException>(entry.Exception);
        Assert.DoesNotContain(server.Logs.Entries, e => e.EventId.Name == "ServiceFailed");
    }

    private sealed class BrokenStream : Stream
    {
        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }

        public override void Flush()
        {
        }

        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException("The body stream is broken.");

        public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
            throw new NotSupportedException("The body stream is broken.");

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}

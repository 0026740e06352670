using System.Text.Json;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>The call lifecycle of every method kind, on ProtoHttp's own protocol, with the real binder, invokers and funnel.</summary>
public class ServerCallHandlerTests
{
    private readonly PipelineHarness _harness = new();

    [Fact]
    public async Task UnaryCallAnswersTheServicesMessageInTheNegotiatedFormat()
    {
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping { Text = "hi" }));
        context.Request.Headers.Accept = "application/x-protobuf";

        await Handler("Echo")(context);

        Assert.Equal(StatusCodes.Status200OK, context.Response.StatusCode);
        Assert.Equal("application/x-protobuf", context.Response.ContentType);
        Assert.Equal(new Pong { Text = "hi", Count = 1 }, Pong.Parser.ParseFrom(((MemoryStream)context.Response.Body).ToArray()));
        Assert.Equal("Accept", context.Response.Headers.Vary);
    }

    [Fact]
    public async Task AnExceptionOfTheServiceIsBlamedOnTheServiceWithoutItsText()
    {
        _harness.Behavior.Answer = (_, _) => throw new InvalidOperationException("a secret of the service");
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping()));

        await Handler("Echo")(context);

        var error = Error(context);
        Assert.Equal(StatusCodes.Status500InternalServerError, context.Response.StatusCode);
        Assert.Equal(("UNKNOWN", CallErrors.ServiceFailedText), error);
        Assert.Contains(("ServiceFailed", LogLevel.Error), _harness.Log.Entries);
        Assert.DoesNotContain(_harness.Log.Entries, e => e.Event == "PipelineFailed");
    }

    [Fact]
    public async Task AFailureInTheProtocolsWritingIsBlamedOnProtoHttp()
    {
        var route = _harness.Route("Echo", new UnwritingProtocol());
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping()));

        await _harness.Handler(route)(context);

        Assert.Equal(StatusCodes.Status500InternalServerError, context.Response.StatusCode);
        Assert.Equal(("INTERNAL", CallErrors.PipelineFailedText), Error(context));
        Assert.Contains(("PipelineFailed", LogLevel.Error), _harness.Log.Entries);
        Assert.DoesNotContain(_harness.Log.Entries, e => e.Event == "ServiceFailed");
    }

    [Fact]
    public async Task AStatusTheServiceSetsIsItsAnswerWithItsTrailers()
    {
        _harness.Behavior.Answer = (_, context) =>
        {
            context.ResponseTrailers.Add("why", "archived");
            context.Status = new Status(StatusCode.NotFound, "No such order.");
            return Task.FromResult(new Pong());
        };
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping()));

        await Handler("Echo")(context);

        Assert.Equal(StatusCodes.Status404NotFound, context.Response.StatusCode);
        Assert.Equal(("NOT_FOUND", "No such order."), Error(context));
        Assert.Equal("archived", context.Response.Headers["why"]);
    }

    [Fact]
    public async Task TheDeadlineAnswersOnTimeWhenTheServiceIgnoresIt()
    {
        var never = new TaskCompletionSource<Pong>();
        _harness.Behavior.Answer = (_, _) => never.Task;
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping()));
        context.Request.Headers["Connect-Timeout-Ms"] = "20";

        await Handler("Echo")(context).WaitAsync(TimeSpan.FromSeconds(30));
        never.SetResult(new Pong());

        Assert.Equal(StatusCodes.Status504GatewayTimeout, context.Response.StatusCode);
        Assert.Equal("DEADLINE_EXCEEDED", Error(context).Code);
    }

    [Fact]
    public async Task ARefusedRequestNeverReachesTheService()
    {
        var context = _harness.Request("PUT", "application/json", PipelineHarness.Json(new Ping()));

        await Handler("Echo")(context);

        Assert.Equal(StatusCodes.Status405MethodNotAllowed, context.Response.StatusCode);
        Assert.Equal("GET, POST", context.Response.Headers.Allow);
        Assert.Equal(0, _harness.Behavior.Calls);
    }

    [Fact]
    public async Task AServerStreamWritesEachMessageThenEnds()
    {
        _harness.Behavior.Answer = (request, _) => Task.FromResult(new Pong { Text = request.Text, Count = 2 });
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping { Text = "tick" }));
        context.Request.Headers.Accept = "application/x-ndjson";

        await Handler("Repeat")(context);

        Assert.Equal("application/x-ndjson", context.Response.ContentType);
        var lines = PipelineHarness.Body(context).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal([new Pong { Text = "tick" }, new Pong { Text = "tick", Count = 1 }], lines.Select(Result));
    }

    [Fact]
    public async Task AServerStreamThatFailsBeforeItsFirstMessageAnswersAsAUnaryCall()
    {
        _harness.Behavior.Answer = (_, _) => Task.FromResult(new Pong { Count = 0 });
        _harness.Behavior.FailAfterStream = new RpcException(new Status(StatusCode.PermissionDenied, "Not yours."));
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping()));
        context.Request.Headers.Accept = "application/x-ndjson";

        await Handler("Repeat")(context);

        Assert.Equal(StatusCodes.Status403Forbidden, context.Response.StatusCode);
        Assert.Equal(("PERMISSION_DENIED", "Not yours."), Error(context));
    }

    [Fact]
    public async Task AClientStreamReadsEveryEnvelopeBeforeTheServiceAnswers()
    {
        var body = PipelineHarness.JsonEnvelopes(new Ping { Text = "a" }, new Ping { Text = "b" }, new Ping { Text = "c" });
        var context = _harness.Request("POST", "application/connect+json", body);
        context.Request.Headers.Accept = "application/x-ndjson";

        await Handler("Count")(context);

        Assert.Equal(StatusCodes.Status200OK, context.Response.StatusCode);
        Assert.Equal(new Pong { Text = "abc", Count = 3 }, Result(PipelineHarness.Body(context).Trim()));
    }

    [Fact]
    public async Task AMalformedRequestStreamIsTheClientsFaultWhateverTheServiceMadeOfIt()
    {
        byte[] body = [.. PipelineHarness.JsonEnvelopes(new Ping { Text = "a" }), 0x07, 0, 0, 0, 0];
        var context = _harness.Request("POST", "application/connect+json", body);
        context.Request.Headers.Accept = "application/x-ndjson";

        await Handler("Count")(context);

        Assert.Equal(StatusCodes.Status400BadRequest, context.Response.StatusCode);
        Assert.Equal("INVALID_ARGUMENT", Error(context).Code);
        Assert.DoesNotContain(_harness.Log.Entries, e => e.Level == LogLevel.Error);
    }

    [Fact]
    public async Task ABidirectionalCallOverHttp1IsRefusedBeforeTheProtocolLooksAtIt()
    {
        var context = _harness.Request("POST", "application/connect+json", PipelineHarness.JsonEnvelopes(new Ping()));

        await Handler("Chat")(context);

        Assert.Equal(StatusCodes.Status505HttpVersionNotsupported, context.Response.StatusCode);
        Assert.Equal("UNIMPLEMENTED", Error(context).Code);
    }

    private RequestDelegate Handler(string method) => _harness.Handler(_harness.Route(method, NativeProtocol.Instance));

    /// <summary>The message of one NDJSON line, <c>{"result": …}</c>.</summary>
    private static Pong Result(string line)
    {
        using var json = JsonDocument.Parse(line);
        return Pong.Parser.ParseJson(json.RootElement.GetProperty("result").GetRawText());
    }

    private static (string Code, string Text) Error(HttpContext context)
    {
        using var json = JsonDocument.Parse(PipelineHarness.Body(context));
        return (json.RootElement.GetProperty("code").GetString()!, json.RootElement.GetProperty("errorText").GetString()!);
    }

    /// <summary>ProtoHttp's protocol with a writer that fails as no client input explains: a fault of ProtoHttp's.</summary>
    private sealed class UnwritingProtocol : CallProtocol
    {
        private readonly NativeProtocol _native = NativeProtocol.Instance;

        public override string Name => _native.Name;

        public override string TelemetrySystem => _native.TelemetrySystem;

        public override KeyValuePair<string, object?>? StatusTag(StatusCode code) => _native.StatusTag(code);

        public override void MapEndpoints(ServiceEndpoints service) => throw new NotSupportedException();

        public override TimeSpan? ReadTimeout(HttpRequest request) => _native.ReadTimeout(request);

        public override CallExchange Accept(ProtoHttpServerCallContext call) => new UnwritingExchange(_native.Accept(call));

        public override Task WriteErrorAsync(HttpContext context, CallFailure failure, WritableMediaType? errorType, MessageCodecs codecs) =>
            _native.WriteErrorAsync(context, failure, errorType, codecs);
    }

    /// <summary>The native protocol's exchange, but its unary answer's writer breaks.</summary>
    private sealed class UnwritingExchange(CallExchange native) : UnaryExchange(native.RequestReader, native.ResponseType)
    {
        public override ValueTask<IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
            native.ReadMessageAsync(call, cancellationToken);

        public override Task WriteMessageAsync(ProtoHttpServerCallContext call, IMessage message) =>
            throw new InvalidOperationException("The writer broke.");
    }
}

using System.Text.Json;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Connect;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>Connect as a protocol part: what it claims, how it reads, and how it spells answers and errors.</summary>
public class ConnectProtocolTests
{
    private readonly PipelineHarness _harness = new();
    private readonly ConnectProtocol _connect = new(new ConnectPathClaims());

    [Fact]
    public async Task AUnaryGetCarriesTheMessageInTheQueryAndIsAnsweredInItsEncoding()
    {
        var context = _harness.Request("GET", query: "?connect=v1&encoding=json&message=%7B%22text%22%3A%22hi%22%7D");

        await Handler("Echo")(context);

        Assert.Equal(StatusCodes.Status200OK, context.Response.StatusCode);
        Assert.StartsWith("application/json", context.Response.ContentType);
        Assert.Equal("hi", Json(context).GetProperty("text").GetString());
    }

    [Fact]
    public async Task TheServicesTrailersAreTrailerHeaders()
    {
        _harness.Behavior.Answer = (request, context) =>
        {
            context.ResponseTrailers.Add("served-by", "unit");
            return Task.FromResult(new Pong { Text = request.Text });
        };
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping { Text = "hi" }));

        await Handler("Echo")(context);

        Assert.Equal("unit", context.Response.Headers["trailer-served-by"]);
    }

    [Fact]
    public async Task AnErrorIsConnectJsonWithTheStatusItsCodeMapsTo()
    {
        _harness.Behavior.Answer = (_, _) => throw new RpcException(new Status(StatusCode.NotFound, "No such order."));
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping()));

        await Handler("Echo")(context);

        Assert.Equal(StatusCodes.Status404NotFound, context.Response.StatusCode);
        Assert.Equal("application/json", context.Response.ContentType);
        Assert.Equal("not_found", Json(context).GetProperty("code").GetString());
        Assert.Equal("No such order.", Json(context).GetProperty("message").GetString());
    }

    [Fact]
    public async Task ARefusedMediaTypeKeepsItsOwnStatusAndSaysWhatWouldWork()
    {
        var context = _harness.Request("POST", "application/xml", "<Ping/>"u8.ToArray());

        await Handler("Echo")(context);

        Assert.Equal(StatusCodes.Status415UnsupportedMediaType, context.Response.StatusCode);
        Assert.Equal("application/proto, application/json", context.Response.Headers["Accept-Post"]);
        Assert.Equal("invalid_argument", Json(context).GetProperty("code").GetString());
    }

    [Fact]
    public async Task AnotherProtocolVersionIsRefused()
    {
        var context = _harness.Request("POST", "application/json", PipelineHarness.Json(new Ping()));
        context.Request.Headers["Connect-Protocol-Version"] = "2";

        await Handler("Echo")(context);

        Assert.Equal(StatusCodes.Status400BadRequest, context.Response.StatusCode);
        Assert.Equal(0, _harness.Behavior.Calls);
    }

    [Fact]
    public async Task OnceAStreamIsAcceptedItsFailureIsToldInTheEndStreamEnvelopeWithStatus200()
    {
        var context = _harness.Request("POST", "application/connect+json", PipelineHarness.JsonEnvelopes(new Ping()));
        context.Request.Headers["Connect-Protocol-Version"] = "2";

        await Handler("Repeat")(context);

        Assert.Equal(StatusCodes.Status200OK, context.Response.StatusCode);
        var body = ((MemoryStream)context.Response.Body).ToArray();
        Assert.Equal(0x02, body[0]); // the end-stream flag
        using var end = JsonDocument.Parse(body.AsMemory(5));
        Assert.Equal("invalid_argument", end.RootElement.GetProperty("error").GetProperty("code").GetString());
    }

    [Fact]
    public async Task AStreamAnswersInTheRequestsCodecWhateverAcceptSays()
    {
        _harness.Behavior.Answer = (request, _) => Task.FromResult(new Pong { Text = request.Text, Count = 1 });
        var context = _harness.Request("POST", "application/connect+json", PipelineHarness.JsonEnvelopes(new Ping { Text = "x" }));
        context.Request.Headers.Accept = "text/event-stream";

        await Handler("Repeat")(context);

        Assert.Equal("application/connect+json", context.Response.ContentType);
        Assert.Equal("gzip", context.Response.Headers["Connect-Accept-Encoding"]);
    }

    [Fact]
    public void FailuresAreTaggedOnlyWhenTheCallFailed()
    {
        Assert.Null(_connect.StatusTag(StatusCode.OK));
        Assert.Equal(new KeyValuePair<string, object?>("rpc.connect_rpc.error_code", "not_found"), _connect.StatusTag(StatusCode.NotFound));
    }

    private RequestDelegate Handler(string method) =>
        _harness.Handler(_harness.Route(method, _connect, route => route with { AllowsGet = route.Kind == MethodType.Unary }));

    private static JsonElement Json(HttpContext context) => JsonDocument.Parse(PipelineHarness.Body(context)).RootElement;
}

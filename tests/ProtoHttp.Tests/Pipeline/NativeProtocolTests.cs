using System.Xml.Linq;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>ProtoHttp's own protocol as a part: the exchange Accept returns, how it reads and how it spells errors.</summary>
public class NativeProtocolTests
{
    private readonly PipelineHarness _harness = new();

    [Fact]
    public void AcceptReturnsAnExchangeThatKnowsTheReaderAndTheAnswersType()
    {
        var http = _harness.Request("POST", "application/xml", "<Ping/>"u8.ToArray());
        http.Request.Headers.Accept = "application/json";
        var call = Call(http, "Echo");

        call.Exchange = NativeProtocol.Instance.Accept(call);

        var codecs = _harness.Settings.Codecs;
        Assert.Same(codecs.Codec(CodecNames.Xml), call.Exchange!.RequestReader);
        Assert.Same(codecs.Codec(CodecNames.Json), call.Exchange!.ResponseType!.Codec);
        Assert.Same(call.Exchange!.ResponseType, call.ErrorType);
    }

    [Fact]
    public void CallsOnARouteThatReadAndAnswerAlikeShareOneExchange()
    {
        // A unary call's exchange holds only the reader and the answer's type, so the route keeps one per pair (BENCHMARKS.md's 100
        // bytes per call): the same exchange for the same choice, another for another.
        var route = _harness.Route("Echo", NativeProtocol.Instance);
        ProtoHttpServerCallContext Accepted(string contentType, string accept)
        {
            var http = _harness.Request("POST", contentType, "{}"u8.ToArray());
            http.Request.Headers.Accept = accept;
            var call = new ProtoHttpServerCallContext(http, route);
            call.Exchange = NativeProtocol.Instance.Accept(call);
            return call;
        }

        var first = Accepted("application/json", "application/x-protobuf");
        var again = Accepted("application/json", "application/x-protobuf");
        var other = Accepted("application/json", "application/json");

        Assert.Same(first.Exchange, again.Exchange);
        Assert.NotSame(first.Exchange, other.Exchange);
        Assert.Same(_harness.Settings.Codecs.Codec(CodecNames.Json), other.Exchange!.RequestReader);
        Assert.Same(_harness.Settings.Codecs.Codec(CodecNames.Json), other.Exchange!.ResponseType!.Codec);
        Assert.Same(MessageCodecs.Protobuf, again.Exchange!.ResponseType!.Codec);
    }

    [Fact]
    public void NoWritableTypeInAcceptIsRefusedWithAnErrorInJson()
    {
        var http = _harness.Request("POST", "application/json", "{}"u8.ToArray());
        http.Request.Headers.Accept = "image/png";
        var call = Call(http, "Echo");

        var refused = Assert.Throws<AspNetCore.Internal.CallRejectedException>(() => NativeProtocol.Instance.Accept(call));

        Assert.Equal(StatusCodes.Status406NotAcceptable, refused.HttpStatus);
        Assert.True(refused.NoAcceptedFormat);
        Assert.Null(call.Exchange);
    }

    [Fact]
    public void AStreamsSuffixForcesItsFramingWhateverAcceptSays()
    {
        var http = _harness.Request("POST", "application/json", "{}"u8.ToArray());
        http.Request.Headers.Accept = "application/x-ndjson";
        var events = _harness.Settings.Streams.Events;
        var call = Call(http, "Repeat", route => ((NativeRoute)route) with { ForcedStream = events });

        call.Exchange = NativeProtocol.Instance.Accept(call);

        Assert.Same(events, call.Exchange!.ResponseStreamType);
    }

    [Fact]
    public void BeforeAStreamStartsItsErrorsGoOutInItsCodec()
    {
        var http = _harness.Request("POST", "application/json", "{}"u8.ToArray());
        http.Request.Headers.Accept = "application/x-ndjson";
        var call = Call(http, "Repeat");

        call.Exchange = NativeProtocol.Instance.Accept(call);

        Assert.Null(call.Exchange!.ResponseType);
        Assert.Same(_harness.Settings.Codecs.Canonical(call.Exchange!.ResponseStreamType!.Codec), call.ErrorType);
    }

    [Fact]
    public void NoStreamFormatInAcceptIsRefusedWithAnErrorInJson()
    {
        var http = _harness.Request("POST", "application/json", "{}"u8.ToArray());
        http.Request.Headers.Accept = "application/xml";
        var call = Call(http, "Repeat");

        var refused = Assert.Throws<AspNetCore.Internal.CallRejectedException>(() => NativeProtocol.Instance.Accept(call));

        Assert.Equal(StatusCodes.Status406NotAcceptable, refused.HttpStatus);
        Assert.True(refused.NoAcceptedFormat);
    }

    [Fact]
    public async Task AGetBindsTheRequestFromTheQueryString()
    {
        var http = _harness.Request("GET", query: "?text=from%20the%20query");
        var call = Call(http, "Echo");
        call.Exchange = NativeProtocol.Instance.Accept(call);

        var message = await call.Exchange!.ReadMessageAsync(call, CancellationToken.None);

        Assert.Equal(new Ping { Text = "from the query" }, message);
    }

    [Fact]
    public async Task AnErrorKeepsTheFormatTheClientAskedForAndCarriesTheTrailers()
    {
        var http = _harness.Request("POST");
        var trailers = new Metadata { { "why", "closed" } };

        await NativeProtocol.Instance.WriteErrorAsync(http, new CallFailure(409, StatusCode.Aborted, "Try again.", Trailers: trailers),
            _harness.Settings.Codecs.Canonical(CodecNames.Xml), _harness.Settings.Codecs);

        Assert.Equal(409, http.Response.StatusCode);
        Assert.Equal("Accept", http.Response.Headers.Vary);
        Assert.Equal("closed", http.Response.Headers["why"]);
        var error = XElement.Parse(PipelineHarness.Body(http));
        Assert.Equal(("ABORTED", "Try again."), (error.Element("code")!.Value, error.Element("error_text")!.Value));
    }

    // The numbers are gRPC's status codes as its specification lists them (doc/statuscodes.md), written out here
    // rather than read from the enum they are checked against.
    [Theory]
    [InlineData(StatusCode.OK, 0)]
    [InlineData(StatusCode.Cancelled, 1)]
    [InlineData(StatusCode.Unknown, 2)]
    [InlineData(StatusCode.InvalidArgument, 3)]
    [InlineData(StatusCode.DeadlineExceeded, 4)]
    [InlineData(StatusCode.NotFound, 5)]
    [InlineData(StatusCode.AlreadyExists, 6)]
    [InlineData(StatusCode.PermissionDenied, 7)]
    [InlineData(StatusCode.ResourceExhausted, 8)]
    [InlineData(StatusCode.FailedPrecondition, 9)]
    [InlineData(StatusCode.Aborted, 10)]
    [InlineData(StatusCode.OutOfRange, 11)]
    [InlineData(StatusCode.Unimplemented, 12)]
    [InlineData(StatusCode.Internal, 13)]
    [InlineData(StatusCode.Unavailable, 14)]
    [InlineData(StatusCode.DataLoss, 15)]
    [InlineData(StatusCode.Unauthenticated, 16)]
    public void EachStatusIsTaggedWithItsGrpcStatusNumber(StatusCode code, int number)
    {
        Assert.Equal(new KeyValuePair<string, object?>("rpc.grpc.status_code", number), NativeProtocol.Instance.StatusTag(code));
    }

    private ProtoHttpServerCallContext Call(HttpContext http, string method, Func<CallRoute, CallRoute>? adjust = null) =>
        new(http, _harness.Route(method, NativeProtocol.Instance, adjust));
}

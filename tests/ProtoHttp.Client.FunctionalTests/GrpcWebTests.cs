using System.Net;
using System.Text;
using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// The typed client in gRPC-Web (<see cref="ProtocolNames.GrpcWeb"/>, docs/protocol.md section 12) against two servers
/// of the same service: ProtoHttp's gRPC-Web and grpc-dotnet's (<c>Grpc.AspNetCore.Web</c>). Each row states what the
/// service does, so both servers are held to the same answers and errors; <see cref="EitherServerGivesTheSameOutcomes"/>
/// compares them with each other.
/// </summary>
public sealed class GrpcWebTests(GrpcWebServers servers) : IClassFixture<GrpcWebServers>
{
    private const string Service = "/protohttp.clienttests.ClientTestService/";

    public static TheoryData<string> Servers => [GrpcWebServers.ProtoHttp, GrpcWebServers.GrpcDotnet];

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task AUnaryCallTravelsAsOneFrameAndBringsItsHeadersAndTrailers(string server)
    {
        var recorder = new RecordingHandler();
        var client = Client(server, recorder);

        using var call = client.EchoAsync(new EchoRequest(), new Metadata { { "x-sent", "hello" }, { "x-sent-bin", [7, 8, 9] } });
        var reply = await call.ResponseAsync;
        var headers = await call.ResponseHeadersAsync;

        Assert.Equal(Service + "Echo", reply.HttpPath);
        Assert.Equal("hello", reply.Headers["x-sent"]);
        Assert.Equal(new byte[] { 7, 8, 9 }, reply.Blob.ToByteArray());
        Assert.Equal("sent as a header", headers.GetValue("x-echo-header"));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
        var trailers = call.GetTrailers();
        Assert.Equal("sent as a trailer", trailers.GetValue("x-echo-trailer"));
        Assert.Equal(new byte[] { 1, 2, 255 }, trailers.GetValueBytes("x-echo-bin"));
        Assert.Null(trailers.Get("grpc-status")); // The outcome is the status, not a trailer.
        var request = recorder.Requests.Single();
        Assert.Equal(HttpMethod.Post, request.Method);
        Assert.Equal("application/grpc-web+proto", request.Content!.Headers.ContentType!.MediaType);
        Assert.StartsWith("application/grpc-web", recorder.ResponseTypes.Single(), StringComparison.Ordinal);
    }

    public static TheoryData<string, string, StatusCode, string> Failures => new()
    {
        { GrpcWebServers.ProtoHttp, "NOT_FOUND", StatusCode.NotFound, "No order 42." },
        { GrpcWebServers.GrpcDotnet, "NOT_FOUND", StatusCode.NotFound, "No order 42." },
        { GrpcWebServers.ProtoHttp, "PERMISSION_DENIED", StatusCode.PermissionDenied, "100% sure: not yours" },
        { GrpcWebServers.GrpcDotnet, "PERMISSION_DENIED", StatusCode.PermissionDenied, "100% sure: not yours" },
        // Not from grpc-dotnet: the service copies the detail into a trailer, which grpc-dotnet cannot send outside ASCII
        // (in a trailers-only answer's headers Kestrel refuses it and the call is UNKNOWN; in a trailers frame the
        // connection breaks off).
        { GrpcWebServers.ProtoHttp, "FAILED_PRECONDITION", StatusCode.FailedPrecondition, "Lager leer: Übermorgen wieder" },
    };

    [Theory]
    [MemberData(nameof(Failures))]
    public async Task AServicesRpcExceptionArrivesWithItsStatusDetailAndTrailers(string server, string name, StatusCode code, string detail)
    {
        using var call = Client(server).FailAsync(new FailRequest { Code = name, Detail = detail });

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(code, ex.StatusCode);
        Assert.Equal(detail, ex.Status.Detail); // Percent-encoded on the wire ('%', 'Ü'), decoded here.
        Assert.Equal(code, call.GetStatus().StatusCode);
        if (detail.All(char.IsAscii))
        {
            // A trailer value outside ASCII is one gRPC does not allow, and servers leave it out.
            Assert.Equal(detail, ex.Trailers.GetValue("failure-reason"));
            Assert.Equal(detail, call.GetTrailers().GetValue("failure-reason"));
        }
    }

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task AServiceThatThrowsAPlainExceptionIsUnknownWithoutItsText(string server)
    {
        using var call = Client(server).FailAsync(new FailRequest());

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.Unknown, ex.StatusCode);
        Assert.DoesNotContain("must not reach the client", ex.Status.Detail, StringComparison.Ordinal);
        Assert.NotEmpty(ex.Status.Detail);
    }

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task AServerStreamDeliversEveryMessageThenItsTrailers(string server)
    {
        using var call = Client(server).Count(new CountRequest { Count = 3, Padding = 2000 });

        var values = new List<int>();
        await foreach (var number in call.ResponseStream.ReadAllAsync())
        {
            Assert.Equal(2000, number.Padding.Length);
            values.Add(number.Value);
        }

        Assert.Equal([1, 2, 3], values);
        Assert.Equal("sent before the numbers", (await call.ResponseHeadersAsync).GetValue("x-stream-header"));
        Assert.Equal(StatusCode.OK, call.GetStatus().StatusCode);
        Assert.Equal("3", call.GetTrailers().GetValue("x-count"));
    }

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task AStreamThatFailsMidwayKeepsWhatCameAndEndsWithTheError(string server)
    {
        using var call = Client(server).Count(new CountRequest { Count = 2, FailCode = "RESOURCE_EXHAUSTED", Detail = "Out of numbers." });

        var values = new List<int>();
        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
        {
            await foreach (var number in call.ResponseStream.ReadAllAsync())
            {
                values.Add(number.Value);
            }
        });

        Assert.Equal([1, 2], values);
        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("Out of numbers.", ex.Status.Detail);
        Assert.Equal("Out of numbers.", ex.Trailers.GetValue("failure-reason"));
        Assert.Equal("2", ex.Trailers.GetValue("x-count"));
        Assert.Equal(StatusCode.ResourceExhausted, call.GetStatus().StatusCode);
    }

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task ADeadlineTravelsAsGrpcTimeoutAndExpires(string server)
    {
        var recorder = new RecordingHandler();
        using var call = Client(server, recorder).SlowAsync(new SlowRequest { DelayMs = 10_000 }, deadline: DateTime.UtcNow.AddMilliseconds(500));

        var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        var timeout = recorder.Requests.Single().Headers.GetValues("grpc-timeout").Single();
        Assert.EndsWith("m", timeout, StringComparison.Ordinal); // Milliseconds, at most 8 digits (docs/protocol.md section 12).
        Assert.InRange(int.Parse(timeout[..^1], System.Globalization.CultureInfo.InvariantCulture), 1, 500);
        Assert.False(recorder.Requests.Single().Headers.Contains("Connect-Timeout-Ms"));
    }

    [Theory]
    [MemberData(nameof(Servers))]
    public async Task AMethodTheServerLacksIsUnimplemented(string server)
    {
        // The sample's service, which neither server here maps.
        var client = new ProtoService.SearchService.SearchServiceClient(Invoker(server, new RecordingHandler()));

        var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.SearchAsync(new ProtoService.SearchRequest { Query = "chai" }));

        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
    }

    [Fact]
    public async Task EitherServerGivesTheSameOutcomes()
    {
        var outcomes = new Dictionary<string, List<string>>();
        foreach (var server in new[] { GrpcWebServers.ProtoHttp, GrpcWebServers.GrpcDotnet })
        {
            var client = Client(server);
            var seen = outcomes[server] = [];
            foreach (var request in new[]
            {
                new CountRequest { Count = 4 },
                new CountRequest { Count = 0 },
                new CountRequest { Count = 1, FailCode = "ABORTED", Detail = "Try again." },
                new CountRequest { Count = 0, FailCode = "INVALID_ARGUMENT", Detail = "Nothing to count." },
                new CountRequest { Count = 1, FailCode = "NO_SUCH_CODE" },
            })
            {
                using var call = client.Count(request);
                try
                {
                    await foreach (var number in call.ResponseStream.ReadAllAsync())
                    {
                        seen.Add(number.Value.ToString(System.Globalization.CultureInfo.InvariantCulture));
                    }
                }
                catch (RpcException)
                {
                    // The outcome is read below, from the call.
                }

                var status = call.GetStatus();
                seen.Add($"{status.StatusCode} '{status.Detail}' x-count={call.GetTrailers().GetValue("x-count")} reason={call.GetTrailers().GetValue("failure-reason")}");
            }

            foreach (var code in new[] { "NOT_FOUND", "UNAVAILABLE", "DATA_LOSS" })
            {
                var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.FailAsync(new FailRequest { Code = code, Detail = code.ToLowerInvariant() }));
                seen.Add($"{ex.StatusCode} '{ex.Status.Detail}' reason={ex.Trailers.GetValue("failure-reason")}");
            }
        }

        Assert.Equal(["1", "2", "3", "4", "OK '' x-count=4 reason="], outcomes[GrpcWebServers.ProtoHttp].Take(5));
        Assert.Equal(8, outcomes[GrpcWebServers.ProtoHttp].Count(line => line.Contains('\'', StringComparison.Ordinal)));
        Assert.Equal(outcomes[GrpcWebServers.ProtoHttp], outcomes[GrpcWebServers.GrpcDotnet]);
    }

    [Fact]
    public async Task AFailureBeforeAnyMessageFromGrpcDotnetIsATrailersOnlyAnswerAndIsRead()
    {
        var recorder = new RecordingHandler();

        var ex = await Assert.ThrowsAsync<RpcException>(async () => await Client(GrpcWebServers.GrpcDotnet, recorder).FailAsync(new FailRequest { Code = "NOT_FOUND", Detail = "gone" }));

        var response = recorder.Responses.Single();
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("5", response.Headers.GetValues("grpc-status").Single()); // The outcome in the headers, no trailers frame.
        Assert.Equal(StatusCode.NotFound, ex.StatusCode);
        Assert.Equal("gone", ex.Status.Detail);
        Assert.Equal("gone", ex.Trailers.GetValue("failure-reason"));
    }

    [Fact]
    public async Task GzippedFramesFromGrpcDotnetAreRead()
    {
        var recorder = new RecordingHandler();
        using var call = Client(GrpcWebServers.GrpcDotnet, recorder).Count(new CountRequest { Count = 2, Padding = 10_000 });

        var values = new List<int>();
        await foreach (var number in call.ResponseStream.ReadAllAsync())
        {
            values.Add(number.Value);
        }

        Assert.Equal([1, 2], values);
        Assert.Equal("identity,gzip", recorder.Requests.Single().Headers.GetValues("grpc-accept-encoding").Single());
        Assert.Equal("gzip", recorder.Responses.Single().Headers.GetValues("grpc-encoding").Single());
    }

    [Fact]
    public async Task JsonTravelsAsGrpcWebJsonToProtoHttp()
    {
        var recorder = new RecordingHandler();
        var client = new ClientTestService.ClientTestServiceClient(Invoker(GrpcWebServers.ProtoHttp, recorder, CodecNames.Json));

        var reply = await client.EchoAsync(new EchoRequest(), new Metadata { { "x-sent", "as json" } });

        Assert.Equal("as json", reply.Headers["x-sent"]);
        Assert.Equal("application/grpc-web+json", recorder.RequestTypes.Single());
        Assert.StartsWith("application/grpc-web+json", recorder.ResponseTypes.Single(), StringComparison.Ordinal);
    }

    [Fact]
    public void ARequestStreamIsUnimplementedAndNothingIsSent()
    {
        var recorder = new RecordingHandler();
        var client = Client(GrpcWebServers.ProtoHttp, recorder);

        var ex = Assert.Throws<RpcException>(() => client.Sum());
        var duplex = Assert.Throws<RpcException>(() => client.Twice());

        Assert.Equal(StatusCode.Unimplemented, ex.StatusCode);
        Assert.Equal(StatusCode.Unimplemented, duplex.StatusCode);
        Assert.Contains("the GrpcWeb protocol does not carry", ex.Status.Detail, StringComparison.Ordinal);
        Assert.Empty(recorder.Requests);
    }

    [Fact]
    public void ACodecThatCannotBeEnvelopedFailsWhenTheInvokerIsMade()
    {
        using var http = new HttpClient();

        var ex = Assert.Throws<InvalidOperationException>(() =>
            new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = servers[GrpcWebServers.ProtoHttp], Protocol = ProtocolNames.GrpcWeb, Codec = CodecNames.Xml }));

        Assert.Equal("gRPC-Web carries codecs that can be enveloped (proto, json), not xml.", ex.Message);
    }

    [Fact]
    public async Task TheProtocolIsFoundByItsNameInAnyCase()
    {
        using var http = new HttpClient();
        var client = new ClientTestService.ClientTestServiceClient(
            new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = servers[GrpcWebServers.ProtoHttp], Protocol = "grpcweb" }));

        var reply = await client.EchoAsync(new EchoRequest());

        Assert.Equal(Service + "Echo", reply.HttpPath);
    }

    public static TheoryData<string, byte[], string> MalformedAnswers => new()
    {
        { "no grpc-status", Frames.Of(0x80, "x-a: b\r\n"u8.ToArray()), "The gRPC-Web trailers frame could not be read: it has no grpc-status." },
        { "a status that is no number", Frames.Of(0x80, "grpc-status: five\r\n"u8.ToArray()), "The gRPC-Web trailers frame could not be read: its grpc-status 'five' is not a status code." },
        { "no trailers frame", Frames.Of(0x00, []), "The response stream ended without its end-stream message, so the call's outcome is unknown." },
        { "two messages", [.. Frames.Of(0x00, []), .. Frames.Of(0x00, []), .. Frames.Of(0x80, "grpc-status: 0\r\n"u8.ToArray())], $"The server answered {Service}Echo, a unary method, with more than one message." },
        { "no message", Frames.Of(0x80, "grpc-status: 0\r\n"u8.ToArray()), $"The server ended {Service}Echo, a unary method, with status OK and no response message." },
    };

    [Theory]
    [MemberData(nameof(MalformedAnswers))]
    public async Task AMalformedAnswerIsInternal(string name, byte[] body, string detail)
    {
        var handler = new StubHandler(_ => new HttpResponseMessage(HttpStatusCode.OK) { Content = new ByteArrayContent(body) { Headers = { { "Content-Type", "application/grpc-web+proto" } } } });
        var client = new ClientTestService.ClientTestServiceClient(
            new ProtoHttpCallInvoker(new HttpClient(handler), new ProtoHttpClientOptions { Address = new Uri("http://stub"), Protocol = ProtocolNames.GrpcWeb }));

        var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.EchoAsync(new EchoRequest()));

        Assert.True(ex.StatusCode == StatusCode.Internal, $"{name}: {ex.Status}");
        Assert.Equal(detail, ex.Status.Detail);
    }

    [Fact]
    public async Task ADeadlinePastEightDigitsOfMillisecondsGoesInWholeSecondsRoundedUp()
    {
        var handler = new StubHandler(_ => new HttpResponseMessage(HttpStatusCode.OK)
        {
            Content = new ByteArrayContent([.. Frames.Of(0x00, []), .. Frames.Of(0x80, "grpc-status: 0\r\nx-done: yes\r\n"u8.ToArray())]) { Headers = { { "Content-Type", "application/grpc-web" } } },
        });
        var client = new ClientTestService.ClientTestServiceClient(
            new ProtoHttpCallInvoker(new HttpClient(handler), new ProtoHttpClientOptions { Address = new Uri("http://stub"), Protocol = ProtocolNames.GrpcWeb }));

        using var call = client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddDays(2));
        await call.ResponseAsync;

        var timeout = handler.LastRequest!.Headers.GetValues("grpc-timeout").Single();
        Assert.EndsWith("S", timeout, StringComparison.Ordinal);
        Assert.InRange(int.Parse(timeout[..^1], System.Globalization.CultureInfo.InvariantCulture), 172_790, 172_800); // 2 days, in at most 8 digits.
        Assert.Equal("yes", call.GetTrailers().GetValue("x-done"));
        Assert.Equal(Frames.Of(0x00, []), handler.LastBody); // The request: one frame of the empty message.
    }

    [Fact]
    public async Task ARefusalWithoutAGrpcStatusIsReadByGrpcsMappingOfHttpStatuses()
    {
        var handler = new StubHandler(_ => new HttpResponseMessage(HttpStatusCode.ServiceUnavailable) { Content = new StringContent("<html>busy</html>", Encoding.UTF8, "text/html") });
        var client = new ClientTestService.ClientTestServiceClient(
            new ProtoHttpCallInvoker(new HttpClient(handler), new ProtoHttpClientOptions { Address = new Uri("http://stub"), Protocol = ProtocolNames.GrpcWeb }));

        var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.EchoAsync(new EchoRequest()));

        Assert.Equal(StatusCode.Unavailable, ex.StatusCode);
        Assert.Equal("The server answered 503 Service Unavailable without a gRPC status.", ex.Status.Detail);
    }

    private ClientTestService.ClientTestServiceClient Client(string server, RecordingHandler? recorder = null) =>
        new(Invoker(server, recorder ?? new RecordingHandler()));

    private ProtoHttpCallInvoker Invoker(string server, RecordingHandler recorder, string codec = CodecNames.Protobuf) =>
        new(new HttpClient(recorder), new ProtoHttpClientOptions { Address = servers[server], Protocol = ProtocolNames.GrpcWeb, Codec = codec });
}

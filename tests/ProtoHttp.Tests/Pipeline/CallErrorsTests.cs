using Grpc.Core;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>The error funnel: what each failure answers, whom it blames, and what a failed request stream changes.</summary>
public class CallErrorsTests
{
    private readonly PipelineHarness _harness = new();

    public static TheoryData<Exception, bool, int, StatusCode> Failures => new()
    {
        { new CallRejectedException(StatusCodes.Status415UnsupportedMediaType, StatusCode.InvalidArgument, "No."), false, 415, StatusCode.InvalidArgument },
        { new InvalidMessageException("Bad JSON."), false, 400, StatusCode.InvalidArgument },
        { new UnwritableMessageException("No XML for this."), false, 406, StatusCode.InvalidArgument },
        { new RpcException(new Status(StatusCode.AlreadyExists, "Taken.")), true, 409, StatusCode.AlreadyExists },
        { new InvalidOperationException("Broke."), true, 500, StatusCode.Unknown },
        { new InvalidOperationException("Broke."), false, 500, StatusCode.Internal },
        { new BadHttpRequestException("Too big.", StatusCodes.Status413PayloadTooLarge), false, 413, StatusCode.ResourceExhausted },
    };

    [Theory]
    [MemberData(nameof(Failures))]
    public void EachFailureHasItsStatusAndCode(Exception exception, bool fromService, int httpStatus, StatusCode code)
    {
        var call = Call();
        call.FromService = fromService;

        var failure = CallErrors.Decide(exception, call, clientGone: false);

        Assert.Equal((httpStatus, code), (failure!.Value.HttpStatus, failure.Value.Code));
    }

    [Fact]
    public void OnlyTheServicesOwnFailuresAreCalledTheServicesWithDetailWhereDetailedErrorsAreOn()
    {
        var call = new ProtoHttpServerCallContext(_harness.Request("POST"), new PipelineHarness(detailedErrors: true).Route("Echo", NativeProtocol.Instance))
        {
            FromService = true,
        };

        var failure = CallErrors.Decide(new InvalidOperationException("Broke."), call, clientGone: false);

        Assert.Equal($"{CallErrors.ServiceFailedText} Broke.", failure!.Value.Text);
    }

    [Theory]
    [InlineData(typeof(OperationCanceledException))]
    [InlineData(typeof(ConnectionResetException))]
    [InlineData(typeof(IOException))]
    public void NothingIsAnsweredToAClientThatLeft(Type exception)
    {
        var failure = CallErrors.Decide((Exception)Activator.CreateInstance(exception, "gone")!, Call(), clientGone: true);

        Assert.Null(failure);
    }

    [Fact]
    public async Task AFaultOfTheRequestStreamWinsOverWhatTheServiceMadeOfIt()
    {
        var call = Call();
        call.FromService = true;
        call.Exchange = new FaultedExchange(new FaultedStream(CallRejectedException.BadRequest("The envelope's flags are 0x07.")));

        var code = await CallErrors.FailAsync(call, new InvalidOperationException("The service choked on it."));

        Assert.Equal(StatusCode.InvalidArgument, code);
        Assert.Equal(StatusCodes.Status400BadRequest, call.HttpContext.Response.StatusCode);
        Assert.Contains("0x07", PipelineHarness.Body(call.HttpContext));
    }

    [Fact]
    public async Task TheServicesTrailersGoOutWithTheStatusItThrew()
    {
        var call = Call();
        call.ResponseTrailers.Add("retry-in", "5");

        await CallErrors.FailAsync(call, new RpcException(new Status(StatusCode.Unavailable, "Later.")));

        Assert.Equal(StatusCodes.Status503ServiceUnavailable, call.HttpContext.Response.StatusCode);
        Assert.Equal("5", call.HttpContext.Response.Headers["retry-in"]);
    }

    private ProtoHttpServerCallContext Call() => new(_harness.Request("POST"), _harness.Route("Echo", NativeProtocol.Instance));

    /// <summary>An exchange whose request stream the client got wrong; it reads and writes nothing.</summary>
    private sealed class FaultedExchange(IRequestStream requests) : CallExchange
    {
        public override IRequestStream? RequestStream => requests;

        public override ValueTask<Google.Protobuf.IMessage> ReadMessageAsync(ProtoHttpServerCallContext call, CancellationToken cancellationToken) =>
            throw new NotSupportedException();

        public override Task WriteMessageAsync(ProtoHttpServerCallContext call, Google.Protobuf.IMessage message) => throw new NotSupportedException();
    }

    private sealed class FaultedStream(CallRejectedException fault) : IRequestStream
    {
        public CallRejectedException? Fault => fault;

        public Task StopAsync() => Task.CompletedTask;
    }
}

using System.Security.Cryptography;
using Grpc.Core;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests.Services;

/// <summary>Fails with a chosen status, runs slowly while watching its token, and echoes metadata.</summary>
public sealed class ClientTestService(CallProbe probe) : Protos.ClientTestService.ClientTestServiceBase
{
    public override Task<Empty> Fail(FailRequest request, ServerCallContext context)
    {
        if (request.Code.Length == 0)
        {
            throw new InvalidOperationException("A plain exception whose text must not reach the client.");
        }

        throw Failure(request.Code, request.Detail);
    }

    public override async Task<Empty> Slow(SlowRequest request, ServerCallContext context)
    {
        probe.ReportStarted(request.Probe);
        try
        {
            await Task.Delay(request.DelayMs, context.CancellationToken);
            probe.Report(request.Probe, cancelled: false);
            return new Empty();
        }
        catch (OperationCanceledException)
        {
            probe.Report(request.Probe, cancelled: true);
            throw;
        }
    }

    public override Task<Parcel> EchoParcel(Parcel request, ServerCallContext context) => Task.FromResult(request);

    public override async Task<EchoReply> Echo(EchoRequest request, ServerCallContext context)
    {
        var reply = new EchoReply { HttpPath = context.GetHttpContext().Request.Path.Value ?? "" };
        foreach (var entry in context.RequestHeaders)
        {
            if (entry.IsBinary)
            {
                reply.Blob = Google.Protobuf.ByteString.CopyFrom(entry.ValueBytes);
            }
            else
            {
                reply.Headers[entry.Key] = entry.Value;
            }
        }

        await context.WriteResponseHeadersAsync(new Metadata { { "x-echo-header", "sent as a header" } });
        context.ResponseTrailers.Add("x-echo-trailer", "sent as a trailer");
        context.ResponseTrailers.Add("x-echo-bin", [1, 2, 255]);
        return reply;
    }

    public override async Task Count(CountRequest request, IServerStreamWriter<Number> responseStream, ServerCallContext context)
    {
        await context.WriteResponseHeadersAsync(new Metadata { { "x-stream-header", "sent before the numbers" } });
        context.ResponseTrailers.Add("x-count", request.Count.ToString(System.Globalization.CultureInfo.InvariantCulture));
        // Random bytes, which gzip cannot shrink: a Connect client accepts gzip, and zeros would let 128 MiB of padding
        // travel as a few hundred kilobytes.
        var padding = Google.Protobuf.ByteString.CopyFrom(RandomNumberGenerator.GetBytes(request.Padding));
        for (var i = 1; i <= request.Count; i++)
        {
            await responseStream.WriteAsync(new Number { Value = i, Padding = padding });
        }

        if (request.HangMs > 0)
        {
            await Watch(request.Probe, context, () => Task.Delay(request.HangMs, context.CancellationToken));
        }
        else if (request.Probe.Length > 0)
        {
            probe.Report(request.Probe, cancelled: false); // Every number is written: the client has taken them all, or the network holds them.
        }

        if (request.FailCode.Length > 0)
        {
            throw Failure(request.FailCode, request.Detail);
        }
    }

    public override async Task<Total> Sum(IAsyncStreamReader<Number> requestStream, ServerCallContext context)
    {
        var total = new Total();
        await Watch(context.RequestHeaders.GetValue("x-probe"), context, async () =>
        {
            await foreach (var number in requestStream.ReadAllAsync(context.CancellationToken))
            {
                Check(number, total.Count);
                total.Count++;
                total.Sum += number.Value;
            }
        });
        context.ResponseTrailers.Add("x-count", total.Count.ToString(System.Globalization.CultureInfo.InvariantCulture));
        return total;
    }

    public override Task Twice(IAsyncStreamReader<Number> requestStream, IServerStreamWriter<Number> responseStream, ServerCallContext context) =>
        Watch(context.RequestHeaders.GetValue("x-probe"), context, async () =>
        {
            var count = 0;
            await foreach (var number in requestStream.ReadAllAsync(context.CancellationToken))
            {
                Check(number, count++);
                await responseStream.WriteAsync(new Number { Value = number.Value * 2 });
            }
        });

    private static void Check(Number number, int index)
    {
        if (number.Value < 0)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, $"{number.Value} is negative."), new Metadata { { "failed-at", index.ToString(System.Globalization.CultureInfo.InvariantCulture) } });
        }
    }

    private static RpcException Failure(string name, string detail) => StatusMapping.TryParseCodeName(name, out var code)
        ? new RpcException(new Status(code, detail), new Metadata { { "failure-reason", detail } })
        : new RpcException(new Status(StatusCode.InvalidArgument, $"'{name}' is no status name."));

    /// <summary>Whether <paramref name="token"/> has fired or fires within 5 s.</summary>
    private static async Task<bool> FiresAsync(CancellationToken token)
    {
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(5), token);
            return false;
        }
        catch (OperationCanceledException)
        {
            return true;
        }
    }

    /// <summary>Runs <paramref name="work"/>, telling the probe (if the call is named) that it started and whether its token fired.</summary>
    private async Task Watch(string? name, ServerCallContext context, Func<Task> work)
    {
        if (name is not null)
        {
            probe.ReportStarted(name);
        }

        try
        {
            await work();
        }
        catch (Exception ex) when (name is not null)
        {
            // A request stream that breaks off throws as the token fires, and the two race: Kestrel can end the body read
            // (an IOException, or a cut-short stream the reader reports) before it cancels RequestAborted, and a client
            // whose own deadline timer fired first leaves before the server's fires. The token must still fire, so give
            // it a moment to.
            probe.Report(name, cancelled: ex is OperationCanceledException || await FiresAsync(context.CancellationToken));
            throw;
        }

        if (name is not null)
        {
            // A request stream can also end well as the call ends: past its deadline the server answers without waiting
            // for the service, and a client that got that answer ends its body. Every named call here is one the test
            // ends early, so the question is still whether the token fires.
            probe.Report(name, cancelled: await FiresAsync(context.CancellationToken));
        }
    }
}

using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>The streaming test service: ticks on demand, chosen failures, headers and trailers, and a probe of what it saw.</summary>
public sealed class StreamingTestService(StreamProbe probe) : StreamingService.StreamingServiceBase
{
    public override async Task Count(CountRequest request, IServerStreamWriter<Tick> responseStream, ServerCallContext context)
    {
        probe.MarkStarted();
        using var watch = CancellationWatch.Start(probe.MarkCancelled, context.CancellationToken);
        if (request.ResponseHeaders.Count > 0)
        {
            var headers = new Metadata();
            foreach (var (key, value) in request.ResponseHeaders)
            {
                headers.Add(key, value);
            }

            await context.WriteResponseHeadersAsync(headers);
        }

        foreach (var (key, value) in request.ResponseTrailers)
        {
            context.ResponseTrailers.Add(key, value);
        }

        if (request.WaitForGate)
        {
            await probe.Gate.WaitAsync(context.CancellationToken);
        }

        var padding = ByteString.CopyFrom(new byte[request.PaddingBytes]);
        var text = request.EchoHeader.Length > 0
            ? string.Join("|", context.RequestHeaders.Where(h => h.Key == request.EchoHeader).Select(h => h.Value))
            : "";
        for (var i = 0; i < request.Count; i++)
        {
            if (request.FailCode.Length > 0 && i == request.FailAfter)
            {
                Fail(request.FailCode, request.FailMessage.Length > 0 ? request.FailMessage : $"failed after {i}", request.StatusDetails);
            }

            var write = responseStream.WriteAsync(new Tick { Sequence = i, Padding = padding, Text = text });
            if (!write.IsCompleted)
            {
                probe.MarkBlockedOnWrite(i);
            }

            await write;
        }

        if (request.FailCode.Length > 0 && request.FailAfter >= request.Count)
        {
            Fail(request.FailCode, request.FailMessage.Length > 0 ? request.FailMessage : $"failed after {request.Count}", request.StatusDetails);
        }

        if (request.WaitForCancellation)
        {
            await Task.Delay(Timeout.Infinite, context.CancellationToken);
        }
    }

    public override async Task<Summary> Sum(IAsyncStreamReader<Tick> requestStream, ServerCallContext context)
    {
        probe.MarkStarted();
        var summary = new Summary();
        await foreach (var tick in requestStream.ReadAllAsync(context.CancellationToken))
        {
            FailIfAsked(tick);
            summary.Count++;
            summary.Sequences.Add(tick.Sequence);
        }

        return summary;
    }

    public override async Task Echo(IAsyncStreamReader<Tick> requestStream, IServerStreamWriter<Tick> responseStream, ServerCallContext context)
    {
        probe.MarkStarted();
        using var watch = CancellationWatch.Start(probe.MarkCancelled, context.CancellationToken);
        await foreach (var tick in requestStream.ReadAllAsync(context.CancellationToken))
        {
            FailIfAsked(tick);
            await responseStream.WriteAsync(tick);
            if (tick.Text == "hold")
            {
                // Only the call's token ends it now, whatever the client does with its side of the stream.
                await Task.Delay(Timeout.Infinite, context.CancellationToken);
            }
        }
    }

    private static void FailIfAsked(Tick tick)
    {
        if (tick.Text.StartsWith("fail:", StringComparison.Ordinal))
        {
            Fail(tick.Text["fail:".Length..], $"failed at {tick.Sequence}");
        }
    }

    private static void Fail(string code, string detail, Google.Protobuf.ByteString? statusDetails = null)
    {
        if (code == "PLAIN")
        {
            throw new InvalidOperationException("Secret internal detail: " + detail);
        }

        if (!StatusMapping.TryParseCodeName(code, out var status))
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, $"Unknown code '{code}'."));
        }

        var trailers = new Metadata { { "failure-reason", detail } };
        if (statusDetails is { IsEmpty: false })
        {
            trailers.Add("grpc-status-details-bin", statusDetails.ToByteArray());
        }

        throw new RpcException(new Status(status, detail), trailers);
    }
}

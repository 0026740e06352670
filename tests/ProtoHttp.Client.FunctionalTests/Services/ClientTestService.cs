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

        if (!StatusMapping.TryParseCodeName(request.Code, out var code))
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, $"'{request.Code}' is no status name."));
        }

        throw new RpcException(new Status(code, request.Detail), new Metadata { { "failure-reason", request.Detail } });
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
}

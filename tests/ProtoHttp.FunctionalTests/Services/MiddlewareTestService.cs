using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// The middleware tests' service. Every call that runs takes the next serial, so a test tells an answer a cache
/// replayed (a serial seen before) from one the service gave; a stable lookup answers the same every time.
/// </summary>
public sealed class MiddlewareTestService : MiddlewareService.MiddlewareServiceBase
{
    private static long s_serial;

    public override async Task<LookupReply> Lookup(LookupRequest request, ServerCallContext context)
    {
        var serial = request.Stable ? 0 : Interlocked.Increment(ref s_serial);
        if (request.DelayMs > 0)
        {
            await Task.Delay(request.DelayMs, context.CancellationToken);
        }

        return new LookupReply
        {
            Key = request.Key,
            Serial = serial,
            Text = new string('x', request.Size),
            HasDeadline = context.Deadline != DateTime.MaxValue,
            Peer = request.ReportPeer ? context.Peer : "",
            Host = request.ReportPeer ? context.Host : "",
        };
    }

    public override Task<LookupReply> Update(LookupRequest request, ServerCallContext context) => Lookup(request, context);

    public override async Task Feed(FeedRequest request, IServerStreamWriter<FeedItem> responseStream, ServerCallContext context)
    {
        for (var i = 0; i < request.Count; i++)
        {
            if (i > 0)
            {
                await Task.Delay(request.IntervalMs, context.CancellationToken);
            }

            await responseStream.WriteAsync(new FeedItem { Sequence = i, Serial = Interlocked.Increment(ref s_serial) });
        }

        if (request.Wait)
        {
            await Task.Delay(Timeout.Infinite, context.CancellationToken);
        }
    }

    public override Task Watch(FeedRequest request, IServerStreamWriter<FeedItem> responseStream, ServerCallContext context) =>
        Feed(request, responseStream, context);

    public override Task<FailReply> Fail(FailRequest request, ServerCallContext context) =>
        request.Code.Length == 0
            ? throw new InvalidOperationException("The service failed on purpose.")
            : throw new RpcException(new Status(Enum.Parse<StatusCode>(request.Code.Replace("_", ""), ignoreCase: true), "failed on purpose"));
}

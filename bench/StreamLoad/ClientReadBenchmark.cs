using Grpc.Core;
using Grpc.Net.Client;
using ProtoHttp.Bench.Streams;
using ProtoHttp.Client;

namespace StreamLoad;

/// <summary>
/// The typed client's server-streaming read rate against Grpc.Net.Client's, through the same generated client
/// (<c>client.Push(request).ResponseStream.ReadAllAsync()</c>) against the same server: Grpc.Net.Client over h2c at the
/// gRPC path, ProtoHttp's invoker at ProtoHttp's route over h2c and HTTP/1.1. An invoker that cannot stream yet answers
/// <c>Unimplemented</c>: that target is reported as not available, once, and is no failure.
/// </summary>
internal static class ClientReadBenchmark
{
    public static async Task<int> RunAsync(Peers peers, Options options, JsonLines output)
    {
        var (count, runs, warmup) = TimedRuns.Settings(options);
        using var channel = GrpcChannel.ForAddress(peers.H2cAddress, new GrpcChannelOptions
        {
            HttpHandler = new SocketsHttpHandler { EnableMultipleHttp2Connections = true },
            MaxReceiveMessageSize = null,
        });
        var clients = new Dictionary<string, PushService.PushServiceClient>
        {
            ["grpc-net-client"] = new(channel),
            ["typed-client-h2c"] = new(new ProtoHttpCallInvoker(peers.H2c)),
            ["typed-client-h1"] = new(new ProtoHttpCallInvoker(peers.Http1)),
        };

        var readers = clients.ToDictionary(c => c.Key, c => (Func<int, CancellationToken, Task<long>>)((n, ct) => ReadAsync(c.Value, n, ct)));
        var failed = await TimedRuns.WarmUpAsync("client", readers, warmup, output,
            ex => ex is RpcException { StatusCode: StatusCode.Unimplemented } rpc ? rpc.Status.Detail : null);
        failed += await TimedRuns.RunAsync("client", readers, count, runs, output);
        return failed == 0 ? 0 : 1;
    }

    private static async Task<long> ReadAsync(PushService.PushServiceClient client, int count, CancellationToken cancellationToken)
    {
        using var call = client.Push(new PushRequest { Count = count }, cancellationToken: cancellationToken);
        long received = 0;
        await foreach (var notification in call.ResponseStream.ReadAllAsync(cancellationToken))
        {
            Check.Notification(notification);
            received++;
        }

        if (call.GetStatus().StatusCode != StatusCode.OK)
        {
            throw new InvalidDataException($"The call ended with {call.GetStatus()}.");
        }

        return received;
    }
}

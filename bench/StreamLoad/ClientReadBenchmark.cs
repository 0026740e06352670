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
        var count = options.Number("--count", 100_000);
        var runs = options.Number("--runs", 5);
        var warmup = options.Number("--warmup", Math.Min(count, 20_000));
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

        var failed = 0;
        foreach (var (target, client) in clients.ToArray())
        {
            try
            {
                using var cts = new CancellationTokenSource(TimeSpan.FromSeconds(60));
                await ReadAsync(client, warmup, cts.Token);
            }
            catch (RpcException ex) when (ex.StatusCode == StatusCode.Unimplemented)
            {
                clients.Remove(target);
                output.Write(new() { ["bench"] = "client", ["target"] = target, ["run"] = 0, ["available"] = false, ["reason"] = ex.Status.Detail });
            }
            catch (Exception ex)
            {
                clients.Remove(target);
                failed++;
                output.Write(new() { ["bench"] = "client", ["target"] = target, ["run"] = 0, ["error"] = ex.Message });
            }
        }

        var readers = clients.ToDictionary(c => c.Key, c => (Func<int, CancellationToken, Task<long>>)((n, ct) => ReadAsync(c.Value, n, ct)));
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

using Microsoft.AspNetCore.Builder;
using NATS.Client.Core;
using NATS.Client.JetStream;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>A real <c>nats-server</c> with JetStream, its file store in its own folder.</summary>
public sealed class NatsServer() : EngineProcess("nats-server")
{
    public static string? MissingReason { get; } = Missing("nats-server");

    public string Url => $"nats://127.0.0.1:{Port}";

    public static async Task<NatsServer> StartAsync()
    {
        var server = new NatsServer();
        await server.LaunchAsync();
        return server;
    }

    public override void Configure(WebApplicationBuilder builder) => builder.Configuration["PriceTicker:Nats"] = Url;

    public override async Task<string[]> PriceFeedIdsAsync()
    {
        await using var connection = new NatsConnection(new NatsOpts { Url = Url });
        var stream = await new NatsJSContext(connection).GetStreamAsync("protohttp_" + Convert.ToHexString("northwind.prices"u8));
        var state = stream.Info.State;
        return [.. Enumerable.Range(0, (int)(state.LastSeq - state.FirstSeq + 1)).Select(i => $"{state.FirstSeq + (ulong)i}-0")];
    }

    protected override IEnumerable<string> Arguments() => ["-js", "-a", "127.0.0.1", "-p", $"{Port}", "-sd", Folder];

    protected override async Task<bool> AnswersAsync()
    {
        try
        {
            await using var connection = new NatsConnection(new NatsOpts { Url = Url });
            await connection.ConnectAsync();
            await new NatsJSContext(connection).GetAccountInfoAsync();
            return true;
        }
        catch (Exception e) when (e is NatsException or TimeoutException or System.Net.Sockets.SocketException)
        {
            return false;
        }
    }
}

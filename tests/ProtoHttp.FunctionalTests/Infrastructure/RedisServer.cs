using Microsoft.AspNetCore.Builder;
using StackExchange.Redis;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A real <c>redis-server</c> writing every command to its append-only file before it answers
/// (<c>appendfsync always</c>), so that a kill loses nothing it acknowledged.
/// </summary>
public sealed class RedisServer() : EngineProcess("redis-server")
{
    public static string? MissingReason { get; } = Missing("redis-server");

    /// <summary>The StackExchange.Redis configuration string of this server.</summary>
    public string Configuration => $"127.0.0.1:{Port}";

    public static async Task<RedisServer> StartAsync()
    {
        var server = new RedisServer();
        await server.LaunchAsync();
        return server;
    }

    public override void Configure(WebApplicationBuilder builder) => builder.Configuration["PriceTicker:Redis"] = Configuration;

    public override async Task<string[]> PriceFeedIdsAsync()
    {
        await using var connection = await ConnectionMultiplexer.ConnectAsync(Configuration);
        var entries = await connection.GetDatabase().StreamRangeAsync("protohttp:{northwind.prices}");
        return [.. entries.Select(e => (string)e.Id!)];
    }

    protected override IEnumerable<string> Arguments() =>
    [
        "--port", $"{Port}", "--bind", "127.0.0.1", "--dir", Folder, "--save", "", "--daemonize", "no",
        "--appendonly", "yes", "--appendfsync", "always",
    ];

    protected override async Task<bool> AnswersAsync()
    {
        try
        {
            await using var connection = await ConnectionMultiplexer.ConnectAsync(Configuration);
            await connection.GetDatabase().PingAsync();
            return true;
        }
        catch (RedisException)
        {
            return false;
        }
    }
}

using System.Diagnostics;
using Google.Protobuf;
using SearchService.Streams;
using StackExchange.Redis;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A real <c>redis-server</c> (Debian's) on a free loopback port, keeping nothing on disk, that a test can restart on
/// the same port; and what a test asks of it: how many clients a channel has, and a publish on the sample's channel.
/// </summary>
public sealed class RedisServer : IAsyncDisposable
{
    // Before MissingReason: static initializers run in the order they are written.
    private static string? Executable { get; } = (Environment.GetEnvironmentVariable("PATH") ?? "")
        .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(folder => Path.Combine(folder, "redis-server"))
        .FirstOrDefault(File.Exists);

    private Process _process;

    private RedisServer(int port)
    {
        Port = port;
        _process = Launch(port);
    }

    /// <summary>Why the Redis tests cannot run here, or <see langword="null"/> when they can.</summary>
    public static string? MissingReason { get; } = Executable is null
        ? "redis-server is needed for the price feed backplane tests but is not on the PATH; install it with: sudo apt-get install redis-server"
        : null;

    public int Port { get; }

    /// <summary>The StackExchange.Redis configuration string of this server.</summary>
    public string Configuration => $"127.0.0.1:{Port}";

    public static async Task<RedisServer> StartAsync()
    {
        var server = new RedisServer(SampleServer.FreePort());
        await server.WaitUntilReadyAsync();
        return server;
    }

    /// <summary>Kills the server, as a crash would: no goodbye to its clients.</summary>
    public async Task StopAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync();
        }
    }

    /// <summary>Starts a new, empty server on the same port.</summary>
    public async Task StartAgainAsync()
    {
        await StopAsync();
        _process.Dispose();
        _process = Launch(Port);
        await WaitUntilReadyAsync();
    }

    /// <summary>How many clients are subscribed to the sample's price channel.</summary>
    public async Task<long> PriceChannelSubscribersAsync()
    {
        await using var connection = await ConnectionMultiplexer.ConnectAsync(Configuration);
        return await connection.GetServer(connection.GetEndPoints()[0]).SubscriptionSubscriberCountAsync(RedisPriceBackplane.Channel);
    }

    /// <summary>Publishes a message on the sample's price channel as an instance would; returns how many clients received it.</summary>
    public async Task<long> PublishTickAsync(IMessage tick)
    {
        await using var connection = await ConnectionMultiplexer.ConnectAsync(Configuration);
        return await connection.GetSubscriber().PublishAsync(RedisPriceBackplane.Channel, tick.ToByteArray());
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _process.Dispose();
    }

    private static Process Launch(int port)
    {
        var start = new ProcessStartInfo(Executable ?? throw new InvalidOperationException(MissingReason))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (var argument in new[] { "--port", $"{port}", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no" })
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        // Read what it says, so a full pipe never blocks it.
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return process;
    }

    private async Task WaitUntilReadyAsync()
    {
        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(20);
        while (true)
        {
            try
            {
                await using var connection = await ConnectionMultiplexer.ConnectAsync(Configuration);
                await connection.GetDatabase().PingAsync();
                return;
            }
            catch (RedisConnectionException) when (DateTime.UtcNow < deadline && !_process.HasExited)
            {
                await Task.Delay(100);
            }
        }
    }
}

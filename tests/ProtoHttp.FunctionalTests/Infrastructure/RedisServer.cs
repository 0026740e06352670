using System.Diagnostics;
using StackExchange.Redis;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A real <c>redis-server</c> (Debian's) on a free loopback port with its own temporary folder, writing every command to
/// its append-only file before it answers (<c>appendfsync always</c>), so a test can kill it as a crash would and start
/// it again on the same port with everything it acknowledged.
/// </summary>
public sealed class RedisServer : ITopicEngineServer
{
    // Before MissingReason: static initializers run in the order they are written.
    private static string? Executable { get; } = (Environment.GetEnvironmentVariable("PATH") ?? "")
        .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(folder => Path.Combine(folder, "redis-server"))
        .FirstOrDefault(File.Exists);

    private readonly string _folder = Directory.CreateTempSubdirectory("protohttp-redis-").FullName;
    private Process _process;

    private RedisServer(int port)
    {
        Port = port;
        _process = Launch();
    }

    /// <summary>Why the Redis tests cannot run here, or <see langword="null"/> when they can.</summary>
    public static string? MissingReason { get; } = Executable is null
        ? "redis-server is needed for the topic engine tests but is not on the PATH; install it with: sudo apt-get install redis-server"
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

    /// <summary>Starts the server again on the same port and folder: it reloads what its append-only file holds.</summary>
    public async Task StartAgainAsync()
    {
        await StopAsync();
        _process.Dispose();
        _process = Launch();
        await WaitUntilReadyAsync();
    }

    public void Configure(Microsoft.AspNetCore.Builder.WebApplicationBuilder builder) => builder.Configuration["PriceTicker:Redis"] = Configuration;

    public async Task<string[]> PriceFeedIdsAsync()
    {
        await using var connection = await ConnectionMultiplexer.ConnectAsync(Configuration);
        var entries = await connection.GetDatabase().StreamRangeAsync("protohttp:{northwind.prices}");
        return [.. entries.Select(e => (string)e.Id!)];
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _process.Dispose();
        Directory.Delete(_folder, recursive: true);
    }

    private Process Launch()
    {
        var start = new ProcessStartInfo(Executable ?? throw new InvalidOperationException(MissingReason))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = _folder,
        };
        string[] arguments =
        [
            "--port", $"{Port}", "--bind", "127.0.0.1", "--dir", _folder, "--save", "", "--daemonize", "no",
            "--appendonly", "yes", "--appendfsync", "always",
        ];
        foreach (var argument in arguments)
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
            catch (RedisException) when (DateTime.UtcNow < deadline && !_process.HasExited)
            {
                await Task.Delay(100);
            }
        }
    }
}

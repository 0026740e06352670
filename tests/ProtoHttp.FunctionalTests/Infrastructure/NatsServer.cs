using System.Diagnostics;
using System.Net.Sockets;
using Microsoft.AspNetCore.Builder;
using NATS.Client.Core;
using NATS.Client.JetStream;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A real <c>nats-server</c> (Debian's) with JetStream on a free loopback port, its store in its own temporary folder,
/// that a test can kill and start again on the same port with what it stored.
/// </summary>
public sealed class NatsServer : ITopicEngineServer
{
    private static string? Executable { get; } = (Environment.GetEnvironmentVariable("PATH") ?? "")
        .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(folder => Path.Combine(folder, "nats-server"))
        .FirstOrDefault(File.Exists);

    private readonly string _folder = Directory.CreateTempSubdirectory("protohttp-nats-").FullName;
    private Process _process;

    private NatsServer(int port)
    {
        Port = port;
        _process = Launch();
    }

    /// <summary>Why the NATS tests cannot run here, or <see langword="null"/> when they can.</summary>
    public static string? MissingReason { get; } = Executable is null
        ? "nats-server is needed for the topic engine tests but is not on the PATH; install it with: sudo apt-get install nats-server"
        : null;

    public int Port { get; }

    public string Url => $"nats://127.0.0.1:{Port}";

    public static async Task<NatsServer> StartAsync()
    {
        var server = new NatsServer(SampleServer.FreePort());
        await server.WaitUntilReadyAsync();
        return server;
    }

    public void Configure(WebApplicationBuilder builder) => builder.Configuration["PriceTicker:Nats"] = Url;

    public async Task StopAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync();
        }
    }

    public async Task StartAgainAsync()
    {
        await StopAsync();
        _process.Dispose();
        _process = Launch();
        await WaitUntilReadyAsync();
    }

    public async Task<string[]> PriceFeedIdsAsync()
    {
        await using var connection = new NatsConnection(new NatsOpts { Url = Url });
        var stream = await new NatsJSContext(connection).GetStreamAsync("protohttp_" + Convert.ToHexString("northwind.prices"u8));
        var state = stream.Info.State;
        return [.. Enumerable.Range(0, (int)(state.LastSeq - state.FirstSeq + 1)).Select(i => $"{state.FirstSeq + (ulong)i}-0")];
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
        foreach (var argument in new[] { "-js", "-a", "127.0.0.1", "-p", $"{Port}", "-sd", _folder })
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
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
                await using var connection = new NatsConnection(new NatsOpts { Url = Url });
                await connection.ConnectAsync();
                await new NatsJSContext(connection).GetAccountInfoAsync();
                return;
            }
            catch (Exception e) when (e is NatsException or SocketException or TimeoutException && DateTime.UtcNow < deadline && !_process.HasExited)
            {
                await Task.Delay(100);
            }
        }
    }
}

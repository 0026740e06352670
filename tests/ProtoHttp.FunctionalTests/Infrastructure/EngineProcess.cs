using System.Diagnostics;
using Microsoft.AspNetCore.Builder;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// An engine's server process (Debian's <c>redis-server</c>, <c>nats-server</c>) on a free loopback port with its own
/// temporary folder, which a test kills as a crash would and starts again on the same port and folder.
/// </summary>
public abstract class EngineProcess : ITopicEngineServer
{
    private readonly string _executable;
    private Process? _process;

    protected EngineProcess(string executable)
    {
        _executable = executable;
        Port = LoopbackPort.Free();
    }

    public int Port { get; }

    /// <summary>The server's own folder: its data lives there.</summary>
    protected string Folder { get; } = Directory.CreateTempSubdirectory("protohttp-engine-").FullName;

    /// <summary>Why <paramref name="name"/> cannot be run here, or <see langword="null"/> when it is on the PATH.</summary>
    public static string? Missing(string name) => Find(name) is null
        ? $"{name} is needed for the topic engine tests but is not on the PATH; install it with: sudo apt-get install {name}"
        : null;

    public abstract void Configure(WebApplicationBuilder builder);

    public abstract Task<string[]> PriceFeedIdsAsync();

    /// <summary>Kills the server, as a crash would: no goodbye to its clients.</summary>
    public async Task StopAsync()
    {
        if (_process is { HasExited: false })
        {
            _process.Kill();
            await _process.WaitForExitAsync();
        }
    }

    /// <summary>Starts the server again on the same port and folder: it reloads what it persisted.</summary>
    public async Task StartAgainAsync()
    {
        await StopAsync();
        await LaunchAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _process?.Dispose();
        Directory.Delete(Folder, recursive: true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Starts the server and waits until it answers.</summary>
    protected async Task LaunchAsync()
    {
        _process?.Dispose();
        var start = new ProcessStartInfo(Find(_executable) ?? throw new InvalidOperationException(Missing(_executable)))
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Folder,
        };
        foreach (var argument in Arguments())
        {
            start.ArgumentList.Add(argument);
        }

        var process = Process.Start(start)!;
        // Read what it says, so a full pipe never blocks it.
        process.OutputDataReceived += (_, _) => { };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        _process = process;

        var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(20);
        while (!await AnswersAsync())
        {
            if (DateTime.UtcNow > deadline || process.HasExited)
            {
                throw new InvalidOperationException($"{_executable} did not answer on port {Port}.");
            }

            await Task.Delay(100);
        }
    }

    /// <summary>The command line: the free port, the folder, and what the engine needs to persist there.</summary>
    protected abstract IEnumerable<string> Arguments();

    /// <summary>Whether the server answers a client.</summary>
    protected abstract Task<bool> AnswersAsync();

    private static string? Find(string name) => (Environment.GetEnvironmentVariable("PATH") ?? "")
        .Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries)
        .Select(folder => Path.Combine(folder, name))
        .FirstOrDefault(File.Exists);
}

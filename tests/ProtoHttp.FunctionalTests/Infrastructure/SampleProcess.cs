using System.Diagnostics;
using System.Reflection;
using System.Text;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The sample as its users start it: the built SearchService.dll in a process of its own, with the arguments and
/// environment variables given, ready once it has logged its start-up lines.
/// </summary>
public sealed class SampleProcess : IAsyncDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly TaskCompletionSource _started = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private SampleProcess(Process process) => _process = process;

    /// <summary>Everything the process wrote to stdout and stderr so far.</summary>
    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    public static async Task<SampleProcess> StartAsync(IReadOnlyList<string> arguments, IReadOnlyDictionary<string, string> environment)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = RepositoryRoot.Path,
        };
        start.ArgumentList.Add(SampleDll);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        // Only what the test names decides the addresses and the environment, not what the test runner inherited.
        foreach (var inherited in new[] { "ASPNETCORE_URLS", "ASPNETCORE_HTTP_PORTS", "ASPNETCORE_HTTPS_PORTS", "ASPNETCORE_ENVIRONMENT", "DOTNET_ENVIRONMENT" })
        {
            start.Environment.Remove(inherited);
        }

        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        var sample = new SampleProcess(new Process { StartInfo = start, EnableRaisingEvents = true });
        sample._process.OutputDataReceived += (_, line) => sample.Record(line.Data);
        sample._process.ErrorDataReceived += (_, line) => sample.Record(line.Data);
        sample._process.Exited += (_, _) => sample._started.TrySetException(new InvalidOperationException("The sample exited before it started:\n" + sample.Output));
        sample._process.Start();
        sample._process.BeginOutputReadLine();
        sample._process.BeginErrorReadLine();

        // A generous bound only so that a hung start fails the test instead of the run; nothing here is timed.
        await sample._started.Task.WaitAsync(TimeSpan.FromMinutes(2));
        return sample;
    }

    /// <summary>The sample's own build output, of the configuration these tests were built in.</summary>
    private static string SampleDll
    {
        get
        {
            var configuration = typeof(SampleProcess).Assembly.GetCustomAttribute<AssemblyConfigurationAttribute>()!.Configuration;
            var dll = Path.Combine(RepositoryRoot.Path, "samples", "SearchService", "bin", configuration, "net10.0", "SearchService.dll");
            return File.Exists(dll) ? dll : throw new InvalidOperationException($"The sample is not built at {dll}: build the solution first.");
        }
    }

    private void Record(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
        }

        // The host's last start-up line, after the addresses and the environment: all a test may look for is there.
        if (line.Contains("Content root path:", StringComparison.Ordinal))
        {
            _started.TrySetResult();
        }
    }

    /// <summary>
    /// Stops the sample as a rolling update or <c>docker stop</c> does: SIGTERM, then the host's graceful shutdown.
    /// </summary>
    public async Task TerminateAsync()
    {
        using (var signal = Process.Start("kill", ["-TERM", $"{_process.Id}"]))
        {
            await signal.WaitForExitAsync();
        }

        await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(1));
    }

    /// <summary>Kills the sample, as a crash or <c>kill -9</c> would: no goodbye to its clients.</summary>
    public async Task KillAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
    }

    public async ValueTask DisposeAsync()
    {
        await KillAsync();
        _process.Dispose();
    }
}

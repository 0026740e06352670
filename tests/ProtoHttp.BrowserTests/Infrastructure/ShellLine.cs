using System.Diagnostics;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>Runs a command line a page shows (curl, buf curl), as a person pasting it into bash would, with buf on the PATH.</summary>
public static class ShellLine
{
    /// <summary>Runs <paramref name="commandLine"/> and returns what it wrote; fails the test with its stderr if it fails.</summary>
    public static async Task<string> RunAsync(string commandLine)
    {
        var start = new ProcessStartInfo("bash", ["-c", commandLine]) { RedirectStandardOutput = true, RedirectStandardError = true };
        start.Environment["PATH"] = BufCli.Folder + ":" + Environment.GetEnvironmentVariable("PATH");
        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        Assert.True(process.ExitCode == 0, await errors);
        return await output;
    }
}

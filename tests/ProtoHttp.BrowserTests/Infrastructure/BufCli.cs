using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// The <c>buf</c> command line that npm installs for tests/ConnectClients (<c>npm ci</c> there; .ci/run does it before
/// the tests), which the explorer's buf curl lines are run with, as a person pasting them would.
/// </summary>
public static class BufCli
{
    public const string InstallCommand = "(cd tests/ConnectClients && npm ci)";

    /// <summary>The folder holding <c>buf</c>, to put first on the PATH of the shell that runs a line.</summary>
    public static string Folder { get; } = Path.Combine(RepositoryRoot.Path, "tests", "ConnectClients", "node_modules", ".bin");

    /// <summary>Why buf curl lines cannot run here, or <see langword="null"/> when they can.</summary>
    public static string? MissingReason { get; } = File.Exists(Path.Combine(Folder, "buf"))
        ? null
        : $"buf is needed to run the explorer's buf curl lines but {Folder}/buf is missing; install it with: {InstallCommand}";
}

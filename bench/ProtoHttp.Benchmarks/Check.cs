namespace ProtoHttp.Benchmarks;

/// <summary>The correctness assert every benchmark ends with, so a broken path fails instead of looking fast.</summary>
internal static class Check
{
    public static void That(bool condition, string what)
    {
        if (!condition)
        {
            throw new InvalidOperationException("Benchmark result is wrong: " + what);
        }
    }

    public static void Equal(long expected, long actual, string what)
    {
        if (expected != actual)
        {
            throw new InvalidOperationException($"Benchmark result is wrong: {what} was {actual}, expected {expected}.");
        }
    }
}

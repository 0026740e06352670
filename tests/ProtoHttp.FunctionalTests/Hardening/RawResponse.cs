namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>An answer read by <see cref="RawHttpConnection"/>.</summary>
public sealed record RawResponse(int Status, IReadOnlyList<(string Name, string Value)> Headers, byte[] Body)
{
    public string? Header(string name) =>
        Headers.Where(h => string.Equals(h.Name, name, StringComparison.OrdinalIgnoreCase)).Select(h => h.Value).FirstOrDefault();
}

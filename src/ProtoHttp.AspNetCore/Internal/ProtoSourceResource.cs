using System.Reflection;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// A service's <c>.proto</c> source as the application embeds it: descriptors drop comments and layout, so the source
/// itself must travel with the application (the explorer, the metadata and the native protocol's <c>.proto</c> endpoint read it).
/// </summary>
internal static class ProtoSourceResource
{
    /// <summary>The file's text from the first of <paramref name="assemblies"/> that embeds it, or null when none does.</summary>
    public static byte[]? TryLoad(string fileName, params Assembly[] assemblies)
    {
        foreach (var assembly in assemblies.Distinct())
        {
            var resource = assembly.GetManifestResourceNames()
                .FirstOrDefault(name => name == fileName || name.EndsWith("." + fileName, StringComparison.Ordinal));
            if (resource is null)
            {
                continue;
            }

            using var stream = assembly.GetManifestResourceStream(resource)!;
            using var copy = new MemoryStream();
            stream.CopyTo(copy);
            return copy.ToArray();
        }

        return null;
    }
}

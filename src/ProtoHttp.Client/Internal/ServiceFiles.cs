using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// Finds the <c>.proto</c> file that declares a service. A Grpc.Tools-generated <c>Method</c> carries only the
/// service's full name, but the URI names the file, so the file is looked up once per service: first where the
/// request and response messages are declared (usually the same file), then in every loaded assembly's generated
/// <c>XxxReflection.Descriptor</c>.
/// </summary>
internal static class ServiceFiles
{
    private static readonly ConcurrentDictionary<string, string> FileNames = new(StringComparer.Ordinal);

    /// <summary>The base name of the service's file, e.g. <c>ProtoService.proto</c>.</summary>
    /// <exception cref="InvalidOperationException">No loaded descriptor declares the service.</exception>
    public static string FileName(string serviceName, IEnumerable<ServiceDescriptor> configured, params MessageDescriptor?[] messages)
    {
        foreach (var service in configured)
        {
            if (service.FullName == serviceName)
            {
                return Path.GetFileName(service.File.Name);
            }
        }

        if (FileNames.TryGetValue(serviceName, out var known))
        {
            return known;
        }

        var file = messages.Select(m => m?.File).FirstOrDefault(f => Declares(f, serviceName))
            ?? LoadedFiles().FirstOrDefault(f => Declares(f, serviceName))
            ?? throw new InvalidOperationException(
                $"The .proto file that declares service '{serviceName}' was not found among the loaded assemblies, so its URI " +
                $"is unknown. Add the service's descriptor: ProtoHttpClientOptions.Services.Add({serviceName.Split('.')[^1]}.Descriptor).");

        return FileNames.GetOrAdd(serviceName, Path.GetFileName(file.Name));
    }

    private static bool Declares(FileDescriptor? file, string serviceName) =>
        file is not null && file.Services.Any(s => s.FullName == serviceName);

    // Safe under trimming: the scan is the last resort, after the configured services and the messages' own files. A
    // descriptor class the trimmer removed, or whose Descriptor property it removed, is not found, and the call then
    // fails with the sentence that says to add the service's descriptor to ProtoHttpClientOptions.Services, which
    // needs no reflection; a file found is always the one that declares the service.
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "A trimmed-away descriptor is not found; the failure names the fix.")]
    [UnconditionalSuppressMessage("Trimming", "IL2075", Justification = "A trimmed-away descriptor is not found; the failure names the fix.")]
    private static IEnumerable<FileDescriptor> LoadedFiles()
    {
        const BindingFlags StaticPublic = BindingFlags.Public | BindingFlags.Static | BindingFlags.DeclaredOnly;
        var protobuf = typeof(FileDescriptor).Assembly.GetName().Name;
        foreach (var assembly in AppDomain.CurrentDomain.GetAssemblies())
        {
            // Only code generated against Google.Protobuf can hold descriptors; this skips the framework cheaply.
            if (assembly.IsDynamic || !assembly.GetReferencedAssemblies().Any(a => a.Name == protobuf))
            {
                continue;
            }

            foreach (var type in LoadableTypes(assembly))
            {
                // protoc's C# generator puts each file's descriptor on a static class: public static FileDescriptor Descriptor.
                if (type is { IsAbstract: true, IsSealed: true }
                    && type.GetProperty("Descriptor", StaticPublic) is { PropertyType: var propertyType } property
                    && propertyType == typeof(FileDescriptor)
                    && property.GetValue(null) is FileDescriptor file)
                {
                    yield return file;
                }
            }
        }
    }

    [RequiresUnreferencedCode("Types the trimmer removed are not listed.")]
    private static Type[] LoadableTypes(Assembly assembly)
    {
        try
        {
            return assembly.GetTypes();
        }
        catch (ReflectionTypeLoadException ex)
        {
            return [.. ex.Types.OfType<Type>()];
        }
    }
}

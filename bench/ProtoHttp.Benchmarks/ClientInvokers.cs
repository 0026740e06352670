using System.Reflection;
using Grpc.Core;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// Finds ProtoHttp.Client's <see cref="CallInvoker"/> by reflection: the client is written on another branch, and the
/// benchmarks must build and run before it lands. Any public invoker whose constructor takes an
/// <see cref="HttpClient"/> first (other parameters defaulted) is used.
/// </summary>
internal static class ClientInvokers
{
    private const string ClientAssembly = "ProtoHttp.Client";

    public static bool Available => FindConstructor() is not null;

    public static CallInvoker Create(HttpClient httpClient)
    {
        var constructor = FindConstructor() ?? throw new InvalidOperationException("ProtoHttp.Client has no CallInvoker yet.");
        var arguments = constructor.GetParameters()
            .Select((p, i) => i == 0 ? httpClient : p.HasDefaultValue ? p.DefaultValue : CreateDefault(p.ParameterType))
            .ToArray();
        return (CallInvoker)constructor.Invoke(arguments);
    }

    private static ConstructorInfo? FindConstructor()
    {
        Assembly assembly;
        try
        {
            assembly = Assembly.Load(ClientAssembly);
        }
        catch (FileNotFoundException)
        {
            return null;
        }

        return assembly.GetExportedTypes()
            .Where(t => typeof(CallInvoker).IsAssignableFrom(t) && !t.IsAbstract)
            .SelectMany(t => t.GetConstructors())
            .Where(c => c.GetParameters() is [var first, ..] && first.ParameterType == typeof(HttpClient))
            .OrderBy(c => c.GetParameters().Length)
            .FirstOrDefault();
    }

    private static object? CreateDefault(Type type) =>
        type.IsValueType ? Activator.CreateInstance(type) : type.GetConstructor(Type.EmptyTypes)?.Invoke(null);
}

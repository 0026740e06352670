using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using ServiceDescriptor = Google.Protobuf.Reflection.ServiceDescriptor;

namespace ProtoHttp.Client.Internal;

/// <summary>Creates a generated client from its <c>(CallInvoker)</c> constructor through a factory compiled once per client type.</summary>
internal static class ClientActivator<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TClient>
    where TClient : ClientBase
{
    private static readonly ObjectFactory Factory = ActivatorUtilities.CreateFactory(typeof(TClient), [typeof(CallInvoker)]);

    /// <summary>
    /// The service the generated client calls: Grpc.Tools nests <c>XxxClient</c> in the static class <c>Xxx</c>, whose
    /// <c>Descriptor</c> names the file, so clients from dependency injection never search for it.
    /// </summary>
    public static ServiceDescriptor? Service { get; } = FindService();

    // Safe under trimming: when the trimmer removed the outer class's Descriptor property, GetProperty returns null and
    // the call finds the service's file as a client made without dependency injection does (ServiceFiles: the
    // configured services, then the files of the method's messages), or fails saying which descriptor to configure.
    [UnconditionalSuppressMessage("Trimming", "IL2075", Justification = "A removed property yields null, which falls back to ServiceFiles.")]
    private static ServiceDescriptor? FindService() =>
        typeof(TClient).DeclaringType?.GetProperty("Descriptor", BindingFlags.Public | BindingFlags.Static)?.GetValue(null) as ServiceDescriptor;

    public static TClient Create(IServiceProvider services, CallInvoker invoker) => (TClient)Factory(services, [invoker]);
}

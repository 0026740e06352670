using System.Reflection;
using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>What ProtoHttp learns about a service class once, at startup: its descriptor, file and methods.</summary>
internal sealed class ServiceModel
{
    private ServiceModel(ServiceDescriptor descriptor, Type bindType, MethodInfo bindMethod)
    {
        Descriptor = descriptor;
        BindType = bindType;
        BindMethod = bindMethod;
    }

    /// <summary>The protobuf service the class implements.</summary>
    public ServiceDescriptor Descriptor { get; }

    /// <summary>The generated static class that holds <c>BindService</c> and <c>Descriptor</c>.</summary>
    public Type BindType { get; }

    public MethodInfo BindMethod { get; }

    /// <summary>The file's base name, e.g. <c>ProtoService.proto</c>: the default route prefix.</summary>
    public string FileName => Path.GetFileName(Descriptor.File.Name);

    /// <summary>Finds the generated service a class derives from, through the attribute Grpc.Tools puts on <c>XxxBase</c>.</summary>
    /// <exception cref="InvalidOperationException">The class is not a Grpc.Tools-generated service implementation.</exception>
    public static ServiceModel For(Type serviceType)
    {
        var attribute = serviceType.GetCustomAttribute<BindServiceMethodAttribute>(inherit: true)
            ?? throw new InvalidOperationException(
                $"{serviceType.Name} is not a protobuf service: derive it from the XxxBase class that Grpc.Tools generates " +
                "from the .proto (GrpcServices=\"Server\" or \"Both\" on its <Protobuf> item).");

        var bindMethod = attribute.BindType.GetMethods(BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static)
            .SingleOrDefault(m => m.Name == attribute.BindMethodName
                && m.GetParameters() is [var binder, _] && binder.ParameterType == typeof(ServiceBinderBase))
            ?? throw new InvalidOperationException(
                $"{attribute.BindType.Name}.{attribute.BindMethodName}(ServiceBinderBase, ...) was not found: regenerate the service with a current Grpc.Tools.");

        var descriptor = attribute.BindType.GetProperty("Descriptor", BindingFlags.Public | BindingFlags.Static)?.GetValue(null) as ServiceDescriptor
            ?? throw new InvalidOperationException(
                $"{attribute.BindType.Name}.Descriptor was not found: regenerate the service with a current Grpc.Tools.");

        return new ServiceModel(descriptor, attribute.BindType, bindMethod);
    }
}

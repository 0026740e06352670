using System.Reflection;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>What one method's calls need, computed on its first call: the URI and the response type's descriptor.</summary>
internal sealed class ClientMethod<TRequest, TResponse>
    where TRequest : class
    where TResponse : class
{
    public ClientMethod(Method<TRequest, TResponse> method, InvokerSettings settings)
    {
        var request = DescriptorOf(typeof(TRequest));
        ResponseDescriptor = DescriptorOf(typeof(TResponse));
        var first = settings.Protocol.PathOf(method, settings.Services, request, ResponseDescriptor);
        Uri = new Uri(settings.BaseAddress, Uri.EscapeDataString(first) + "/" + Uri.EscapeDataString(method.Name));
        Settings = settings;
        FullName = method.FullName;
    }

    public Uri Uri { get; }

    public MessageDescriptor ResponseDescriptor { get; }

    public InvokerSettings Settings { get; }

    /// <summary>The gRPC method name, <c>/package.Service/Method</c>, for messages.</summary>
    public string FullName { get; }

    private static MessageDescriptor DescriptorOf(Type type) =>
        typeof(IMessage).IsAssignableFrom(type)
        && type.GetProperty("Descriptor", BindingFlags.Public | BindingFlags.Static)?.GetValue(null) is MessageDescriptor descriptor
            ? descriptor
            : throw new InvalidOperationException(
                $"{type.Name} is not a generated protobuf message: ProtoHttp clients call methods whose messages come from a .proto compiled by Grpc.Tools.");
}

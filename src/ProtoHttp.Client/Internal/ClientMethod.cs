using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>What one method's calls need, computed on its first call: the URI and the response type's descriptor.</summary>
/// <remarks>Not generic over the messages, so the protocol parts read answers without a generic virtual call.</remarks>
internal sealed class ClientMethod
{
    private ClientMethod(IMethod method, MessageDescriptor request, MessageDescriptor response, InvokerSettings settings)
    {
        ResponseDescriptor = response;
        var first = settings.Protocol.PathOf(method, settings.Services, request, ResponseDescriptor);
        Uri = new Uri(settings.BaseAddress, Uri.EscapeDataString(first) + "/" + Uri.EscapeDataString(method.Name));
        Settings = settings;
        FullName = method.FullName;
    }

    public static ClientMethod Create<TRequest, TResponse>(Method<TRequest, TResponse> method, InvokerSettings settings) =>
        new(method, DescriptorOf(method.RequestMarshaller), DescriptorOf(method.ResponseMarshaller), settings);

    public Uri Uri { get; }

    public MessageDescriptor ResponseDescriptor { get; }

    public InvokerSettings Settings { get; }

    /// <summary>The gRPC method name, <c>/package.Service/Method</c>, for messages.</summary>
    public string FullName { get; }

    // The descriptor of an empty message from the method's own marshaller: generated code reaches it without
    // reflection over the message type, which trimming could remove.
    private static MessageDescriptor DescriptorOf<T>(Marshaller<T> marshaller)
    {
        object? empty;
        try
        {
            empty = marshaller.ContextualDeserializer(EmptyPayload.Instance);
        }
        catch (Exception ex) when (ex is InvalidProtocolBufferException or InvalidOperationException or NotSupportedException)
        {
            empty = null;
        }

        return empty is IMessage message
            ? message.Descriptor
            : throw new InvalidOperationException(
                $"{typeof(T).Name} is not a generated protobuf message: ProtoHttp clients call methods whose messages come from a .proto compiled by Grpc.Tools.");
    }
}

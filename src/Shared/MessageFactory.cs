using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>Creates empty messages of a descriptor's generated type.</summary>
internal static class MessageFactory
{
    // Through the public parameterless constructor Grpc.Tools generates: MessageDescriptor.ClrType carries the
    // trimming annotation that keeps it, and no code is generated at run time, so this holds under Native AOT.
    public static IMessage Create(MessageDescriptor descriptor) => (IMessage)Activator.CreateInstance(descriptor.ClrType)!;
}

using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Conformance;

/// <summary>The message types the runner sends, each with the route prefix its echo service is mapped at.</summary>
internal static class TestMessages
{
    private static readonly Dictionary<string, (string Prefix, MessageDescriptor Descriptor)> ByName = new()
    {
        [ProtobufTestMessages.Proto3.TestAllTypesProto3.Descriptor.FullName] = ("/proto3", ProtobufTestMessages.Proto3.TestAllTypesProto3.Descriptor),
        [ProtobufTestMessages.Proto2.TestAllTypesProto2.Descriptor.FullName] = ("/proto2", ProtobufTestMessages.Proto2.TestAllTypesProto2.Descriptor),
        [ProtobufTestMessages.Editions.TestAllTypesEdition2023.Descriptor.FullName] = ("/edition2023", ProtobufTestMessages.Editions.TestAllTypesEdition2023.Descriptor),
        [ProtobufTestMessages.Editions.Proto2.TestAllTypesProto2.Descriptor.FullName] = ("/editions-proto2", ProtobufTestMessages.Editions.Proto2.TestAllTypesProto2.Descriptor),
        [ProtobufTestMessages.Editions.Proto3.TestAllTypesProto3.Descriptor.FullName] = ("/editions-proto3", ProtobufTestMessages.Editions.Proto3.TestAllTypesProto3.Descriptor),
    };

    /// <summary>Every type an <c>Any</c> in the test messages may hold: the test files and their imports.</summary>
    public static TypeRegistry Registry { get; } = TypeRegistry.FromFiles(ByName.Values.Select(type => type.Descriptor.File).ToArray());

    public static bool TryFind(string messageType, out string prefix, out MessageDescriptor descriptor)
    {
        var found = ByName.TryGetValue(messageType, out var entry);
        (prefix, descriptor) = entry;
        return found;
    }
}

using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp;

/// <summary>The message types a service's <c>google.protobuf.Any</c> values may hold in JSON, whose form names the type.</summary>
internal static class AnyTypeRegistry
{
    // The files of protobuf's well-known types: JsonFormatter writes every type in them as {"@type", "value"}.
    private static readonly FileDescriptor[] WellKnownFiles =
    [
        AnyReflection.Descriptor, ApiReflection.Descriptor, DurationReflection.Descriptor, EmptyReflection.Descriptor,
        FieldMaskReflection.Descriptor, SourceContextReflection.Descriptor, StructReflection.Descriptor,
        TimestampReflection.Descriptor, TypeReflection.Descriptor, WrappersReflection.Descriptor,
    ];

    private static readonly HashSet<string> WellKnownFileNames = [.. WellKnownFiles.Select(file => file.Name)];

    /// <summary>
    /// The types of <paramref name="files"/> and of every file they import, at any depth, plus the well-known types,
    /// which an Any commonly holds (a Timestamp, a Struct) without the service's files importing them.
    /// </summary>
    public static TypeRegistry FromFiles(IEnumerable<FileDescriptor> files) => TypeRegistry.FromFiles([.. WellKnownFiles, .. files]);

    /// <summary>Whether an Any holding this type carries its JSON form under <c>"value"</c> (JsonFormatter's test, internal to it).</summary>
    public static bool IsWellKnown(MessageDescriptor descriptor) => WellKnownFileNames.Contains(descriptor.File.Name);
}

using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Xml;

/// <summary>Picks the typed value reader for a field's type.</summary>
internal static class XmlValueReaders
{
    /// <summary>The reader of the field's leaf values, or null when reflection reads them.</summary>
    public static XmlValueReader? For(FieldDescriptor field) => field.FieldType switch
    {
        FieldType.Bool => XmlScalarReader<bool>.Instance,
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => XmlScalarReader<int>.Instance,
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => XmlScalarReader<long>.Instance,
        FieldType.UInt32 or FieldType.Fixed32 => XmlScalarReader<uint>.Instance,
        FieldType.UInt64 or FieldType.Fixed64 => XmlScalarReader<ulong>.Instance,
        FieldType.Double => XmlScalarReader<double>.Instance,
        FieldType.Float => XmlScalarReader<float>.Instance,
        FieldType.String => XmlStringReader.Instance,
        FieldType.Bytes => XmlBytesReader.Instance,
        FieldType.Message when field.MessageType.FullName == Timestamp.Descriptor.FullName => XmlTimestampReader.Instance,
        _ => null,
    };
}

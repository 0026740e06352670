using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using Type = System.Type;

namespace ProtoHttp.Xml;

/// <summary>Picks the typed value reader for a field's C# type.</summary>
internal static class XmlValueReaders
{
    /// <summary>An <see cref="XmlValueReader{T}"/> with T exactly <paramref name="type"/>, or null when there is none.</summary>
    public static object? For(FieldDescriptor field, Type type)
    {
        object? reader = field.FieldType switch
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
            FieldType.Message when type == typeof(Timestamp) => XmlTimestampReader.Instance,
            _ => null,
        };
        return reader is not null && typeof(XmlValueReader<>).MakeGenericType(type).IsInstanceOfType(reader) ? reader : null;
    }
}

using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>A number or bool, parsed from the reader's characters without a string (<see cref="FieldText.TryParseScalar{T}"/>).</summary>
internal sealed class XmlScalarReader<T> : XmlValueReader<T>
    where T : struct
{
    public static XmlScalarReader<T> Instance { get; } = new();

    public override T Read(XmlMessageReader reader, FieldDescriptor field, string where)
    {
        if ((typeof(T) == typeof(int) || typeof(T) == typeof(long)) && reader.TryReadIntegerFast(out T fast))
        {
            return fast;
        }

        var text = reader.ReadChars(where);
        return FieldText.TryParseScalar<T>(text, out var value)
            ? value
            : throw XmlMessageReader.Invalid(where, FieldText.InvalidScalar(field.FieldType, text.ToString()));
    }
}

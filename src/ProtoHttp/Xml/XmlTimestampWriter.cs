using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Xml;

/// <summary>Timestamp as the text of its JSON form, written natively since Northwind orders carry three each.</summary>
internal sealed class XmlTimestampWriter : XmlValueWriter<Timestamp>
{
    public static XmlTimestampWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, Timestamp value)
    {
        if (!TimestampText.TryFormat(value, output.Reserve(TimestampText.MaxUtf8Length), out var written))
        {
            throw TimestampText.OutOfRange(value);
        }

        output.Advance(written);
    }
}

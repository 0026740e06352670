using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// Sets every field of a message to a value other than its default, through the descriptors alone, so a test covers
/// message types nobody on the project wrote: repeated fields get two items, maps one entry, each oneof its last
/// member, and nested messages are filled one level down (recursive types would otherwise never end).
/// </summary>
public static class EveryField
{
    public static T Set<T>(T message)
        where T : IMessage
    {
        Fill(message, levels: 2);
        return message;
    }

    private static void Fill(IMessage message, int levels)
    {
        foreach (var field in message.Descriptor.Fields.InFieldNumberOrder())
        {
            var isMessage = field.FieldType is FieldType.Message or FieldType.Group;
            if (isMessage && !field.IsMap && levels <= 1)
            {
                continue;
            }

            if (field.IsMap)
            {
                var key = field.MessageType.FindFieldByNumber(1);
                var value = field.MessageType.FindFieldByNumber(2);
                ((IDictionary)field.Accessor.GetValue(message))[Value(key, levels)] = Value(value, levels);
            }
            else if (field.IsRepeated)
            {
                var list = (IList)field.Accessor.GetValue(message);
                list.Add(Value(field, levels));
                list.Add(Value(field, levels));
            }
            else
            {
                field.Accessor.SetValue(message, Value(field, levels));
            }
        }
    }

    private static object Value(FieldDescriptor field, int levels) => field.FieldType switch
    {
        FieldType.Double => 2.5d,
        FieldType.Float => 1.5f,
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => -9_000_000_000L,
        FieldType.UInt64 or FieldType.Fixed64 => 9_000_000_000UL,
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 => -7,
        FieldType.UInt32 or FieldType.Fixed32 => 7U,
        FieldType.Bool => true,
        FieldType.String => "text <&>",
        FieldType.Bytes => ByteString.CopyFrom(1, 2, 255),
        // The last value: never the default, which is the first (or zero) in these protos.
        FieldType.Enum => Enum.ToObject(field.EnumType.ClrType, field.EnumType.Values[^1].Number),
        _ => Nested(field, levels),
    };

    private static IMessage Nested(FieldDescriptor field, int levels)
    {
        var nested = (IMessage)Activator.CreateInstance(field.MessageType.ClrType)!;
        Fill(nested, levels - 1);
        return nested;
    }
}

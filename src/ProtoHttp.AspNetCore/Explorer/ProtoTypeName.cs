using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>A field's type as a .proto declares it: <c>int32</c>, <c>repeated string</c>, <c>map&lt;string, int64&gt;</c>, <c>Timestamp</c>.</summary>
internal static class ProtoTypeName
{
    public static string Of(FieldDescriptor field)
    {
        if (field.IsMap)
        {
            return $"map<{Bare(field.MessageType.FindFieldByNumber(1))}, {Bare(field.MessageType.FindFieldByNumber(2))}>";
        }

        var label = field.IsRepeated ? "repeated " : field.IsRequired ? "required " : field.HasPresence && field.RealContainingOneof is null && field.FieldType != FieldType.Message ? "optional " : "";
        return label + Bare(field);
    }

    private static string Bare(FieldDescriptor field) => field.FieldType switch
    {
        FieldType.Message or FieldType.Group => field.MessageType.Name,
        FieldType.Enum => field.EnumType.Name,
        _ => field.FieldType.ToString().ToLowerInvariant(),
    };
}

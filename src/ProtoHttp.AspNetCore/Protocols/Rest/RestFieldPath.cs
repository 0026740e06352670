using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>
/// A query key resolved against the request type as the HttpRule docs name fields: proto or JSON names, dotted through
/// singular messages, a map's <c>[key]</c> kept as sent.
/// </summary>
internal static class RestFieldPath
{
    /// <summary>
    /// The key's field path in proto names (<c>Proto</c>, to compare with what the path and body bind) and the key
    /// the form binder reads (a wrapper's <c>min_pages.value</c> becomes <c>min_pages</c>: the binder reads a wrapper as
    /// its scalar); null where the key names no field.
    /// </summary>
    public static (string Proto, string Key)? Canonical(MessageDescriptor descriptor, string key)
    {
        // The common key, one field's name: looked up with nothing allocated (W8's GET binds such keys on every call).
        if (key.AsSpan().IndexOfAny('.', '[') < 0)
        {
            return Field(descriptor, key) is { } named ? (named.Name, key) : null;
        }

        var bracket = key.IndexOf('[');
        var names = (bracket < 0 ? key : key[..bracket]).Split('.');
        var type = descriptor;
        var proto = new List<string>(names.Length);
        for (var i = 0; i < names.Length; i++)
        {
            if (type is null)
            {
                return null;
            }

            var field = Field(type, names[i]);
            if (field is null)
            {
                return null;
            }

            proto.Add(field.Name);
            var isMessage = field is { FieldType: FieldType.Message, IsMap: false };
            if (isMessage && IsWrapper(field.MessageType) && i == names.Length - 2 && names[^1] == "value")
            {
                var shown = string.Join('.', names[..^1]);
                return (string.Join('.', proto), shown + (bracket < 0 ? "" : key[bracket..]));
            }

            type = isMessage && !field.IsRepeated ? field.MessageType : null;
        }

        return (string.Join('.', proto), key);
    }

    // A field by its proto name or its JSON name.
    private static FieldDescriptor? Field(MessageDescriptor type, string name)
    {
        if (type.FindFieldByName(name) is { } field)
        {
            return field;
        }

        foreach (var candidate in type.Fields.InDeclarationOrder())
        {
            if (candidate.JsonName == name)
            {
                return candidate;
            }
        }

        return null;
    }

    private static bool IsWrapper(MessageDescriptor type) =>
        type.File.Package == "google.protobuf" && type.Name.EndsWith("Value", StringComparison.Ordinal) && type.Name is not ("Value" or "ListValue");
}

using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>Names the proto2 <c>required</c> fields a message lacks, so the 400 says which ones.</summary>
internal static class RequiredFields
{
    /// <summary>Throws when a required field, at any depth, is missing.</summary>
    /// <exception cref="InvalidMessageException">One or more required fields are not set.</exception>
    public static void Check(IMessage message)
    {
        if (message.IsInitialized())
        {
            return;
        }

        var missing = new List<string>();
        Collect(message, prefix: "", missing);
        throw new InvalidMessageException(missing.Count == 1
            ? $"Missing required field '{missing[0]}'."
            : $"Missing required fields: {string.Join(", ", missing.Select(name => $"'{name}'"))}.");
    }

    private static void Collect(IMessage message, string prefix, List<string> missing)
    {
        foreach (var field in message.Descriptor.Fields.InFieldNumberOrder())
        {
            var path = prefix + field.Name;
            if (field.IsRequired && !field.Accessor.HasValue(message))
            {
                missing.Add(path);
                continue;
            }

            if (field.FieldType is not (FieldType.Message or FieldType.Group))
            {
                continue;
            }

            if (field.IsMap)
            {
                continue;
            }

            if (field.IsRepeated)
            {
                var index = 0;
                foreach (IMessage item in (System.Collections.IList)field.Accessor.GetValue(message))
                {
                    Collect(item, $"{path}[{index++}].", missing);
                }
            }
            else if (field.Accessor.GetValue(message) is IMessage child && field.Accessor.HasValue(message))
            {
                Collect(child, path + ".", missing);
            }
        }
    }
}

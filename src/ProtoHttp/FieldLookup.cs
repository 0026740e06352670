using System.Collections.Concurrent;
using System.Collections.Frozen;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>
/// Finds a field by its proto name or its JSON name, as every text format accepts both on input.
/// The table is built once per message type.
/// </summary>
internal static class FieldLookup
{
    private static readonly ConcurrentDictionary<MessageDescriptor, FrozenDictionary<string, FieldDescriptor>> Tables = new();

    /// <summary>The field named <paramref name="name"/> (proto or JSON name), or <see langword="null"/>.</summary>
    public static FieldDescriptor? Find(MessageDescriptor descriptor, string name) =>
        Tables.GetOrAdd(descriptor, Build).GetValueOrDefault(name);

    private static FrozenDictionary<string, FieldDescriptor> Build(MessageDescriptor descriptor)
    {
        var names = new Dictionary<string, FieldDescriptor>(StringComparer.Ordinal);
        foreach (var field in descriptor.Fields.InDeclarationOrder())
        {
            // Proto names win over a JSON name that happens to equal another field's proto name.
            names[field.Name] = field;
        }

        foreach (var field in descriptor.Fields.InDeclarationOrder())
        {
            names.TryAdd(field.JsonName, field);
        }

        return names.ToFrozenDictionary(StringComparer.Ordinal);
    }
}

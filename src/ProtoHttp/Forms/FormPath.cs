using System.Collections.Concurrent;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Forms;

/// <summary>
/// A form key resolved against a message type: <c>page_number</c>, <c>filter.min_price</c> (through singular
/// nested messages) or <c>labels[key]</c> (a map entry). Resolving touches no message, so a key whose value
/// turns out empty creates no nested message.
/// </summary>
internal sealed class FormPath
{
    // The paths of plain keys (page_number), one per field and immutable, so a query string's usual keys resolve
    // without allocating; bounded by the schema, whatever names clients send.
    private static readonly ConcurrentDictionary<FieldDescriptor, FormPath> Plain = new();

    private readonly FieldDescriptor[] _fields;

    private FormPath(FieldDescriptor[] fields, string? mapKey)
    {
        _fields = fields;
        MapKey = mapKey;
        Canonical = string.Join('.', fields.Select(field => field.Name)) + (mapKey is null ? "" : $"[{mapKey}]");
    }

    /// <summary>The field the value goes into.</summary>
    public FieldDescriptor Leaf => _fields[^1];

    /// <summary>The text between the brackets of <c>labels[key]</c>, or <see langword="null"/> when the leaf is not a map.</summary>
    public string? MapKey { get; }

    /// <summary>Whether the path passes through (or ends at) a member of a oneof.</summary>
    public bool InOneof => _fields.Any(step => step.RealContainingOneof is not null);

    /// <summary>The path in proto names, the same whichever names the client used; used to find duplicates.</summary>
    public string Canonical { get; }

    /// <summary>Resolves <paramref name="key"/>, or returns <see langword="null"/> for an unknown name that the options ignore.</summary>
    /// <param name="descriptor">The message type the key is resolved against.</param>
    /// <param name="key">The key.</param>
    /// <param name="options">Whether unknown names are ignored, and the depth limit.</param>
    /// <param name="shownKey">The key as the client sent it, for errors, where it differs (a map row's <c>labels[0].key</c>).</param>
    /// <exception cref="InvalidMessageException">The key names no field, or a field a form cannot reach.</exception>
    public static FormPath? Resolve(MessageDescriptor descriptor, string key, FormatOptions options, string? shownKey = null)
    {
        var shown = shownKey ?? key;
        if (key.AsSpan().IndexOfAny('.', '[') < 0 && options.MaxDepth >= 1)
        {
            // A plain key, what most forms and query strings hold: one field, no nesting, no map key.
            var plain = FieldLookup.Find(descriptor, key);
            if (plain is null)
            {
                return options.IgnoreUnknownFields
                    ? null
                    : throw new InvalidMessageException($"Unknown key '{shown}': {descriptor.Name} has no field '{key}'.");
            }

            CheckReachable(shown, plain, last: true);
            return Plain.GetOrAdd(plain, static field => new FormPath([field], mapKey: null));
        }

        string? mapKey = null;
        var names = key;
        var bracket = key.IndexOf('[', StringComparison.Ordinal);
        if (bracket >= 0)
        {
            if (!key.EndsWith(']'))
            {
                throw new InvalidMessageException($"Key '{shown}': a map entry is written name[key], with the ']' last.");
            }

            mapKey = key[(bracket + 1)..^1];
            names = key[..bracket];
        }

        var segments = names.Split('.');
        if (segments.Length > options.MaxDepth)
        {
            throw new InvalidMessageException($"Key '{FieldText.Shorten(shown)}' nests deeper than {options.MaxDepth} fields.");
        }

        var fields = new FieldDescriptor[segments.Length];
        var type = descriptor;
        for (var i = 0; i < segments.Length; i++)
        {
            var field = FieldLookup.Find(type, segments[i]);
            if (field is null)
            {
                return options.IgnoreUnknownFields
                    ? null
                    : throw new InvalidMessageException($"Unknown key '{shown}': {type.Name} has no field '{segments[i]}'.");
            }

            fields[i] = field;
            var last = i == segments.Length - 1;
            if (!last || mapKey is null)
            {
                CheckReachable(shown, field, last);
            }

            if (!last)
            {
                type = field.MessageType;
            }
        }

        if (mapKey is not null && !fields[^1].IsMap)
        {
            throw new InvalidMessageException($"Key '{shown}': '{fields[^1].Name}' is not a map, so it takes no [key].");
        }

        return new FormPath(fields, mapKey);
    }

    /// <summary>The field a dotted path of names ends at, or null where a name is unknown or a step is no message.</summary>
    public static FieldDescriptor? FindLeaf(MessageDescriptor descriptor, string names)
    {
        FieldDescriptor? field = null;
        foreach (var segment in names.Split('.'))
        {
            if (field is not null && field.FieldType is not (FieldType.Message or FieldType.Group))
            {
                return null;
            }

            field = FieldLookup.Find(field?.MessageType ?? descriptor, segment);
            if (field is null)
            {
                return null;
            }
        }

        return field;
    }

    /// <summary>The message that holds <see cref="Leaf"/>, creating the nested messages on the way.</summary>
    public IMessage Parent(IMessage root)
    {
        var message = root;
        for (var i = 0; i < _fields.Length - 1; i++)
        {
            message = FieldValues.Child(message, _fields[i]);
        }

        return message;
    }

    private static void CheckReachable(string shown, FieldDescriptor field, bool last)
    {
        if (field.IsMap)
        {
            throw new InvalidMessageException($"Key '{shown}': '{field.Name}' is a map; bind its entries as {field.Name}[key]=value.");
        }

        var nested = field.FieldType is FieldType.Message or FieldType.Group && !WellKnownText.IsText(field.MessageType);
        if (nested && field.IsRepeated)
        {
            throw new InvalidMessageException($"Key '{shown}': '{field.Name}' is a repeated message field, which a form or query string cannot bind.");
        }

        if (nested && last)
        {
            throw new InvalidMessageException($"Key '{shown}': '{field.Name}' is a message; bind its fields as {field.Name}.name=value.");
        }

        if (!nested && !last)
        {
            throw new InvalidMessageException($"Key '{shown}': '{field.Name}' is not a message, so it has no fields to reach with '.'.");
        }
    }
}

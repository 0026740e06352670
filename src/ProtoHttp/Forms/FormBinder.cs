using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Forms;

/// <summary>
/// Binds a form body or a query string to a message (docs/protocol.md section 4): proto or JSON names, dotted paths
/// into singular nested messages, <c>map[key]=value</c>, repeated keys for repeated scalars, values in the XML
/// text forms. Every mistake is an <see cref="InvalidMessageException"/> naming the key.
/// </summary>
internal sealed class FormBinder : MessageCodec
{
    /// <summary>
    /// The hidden field ASP.NET Core's antiforgery puts in every form (its default name). Antiforgery middleware has
    /// already checked it by the time the form is bound, so it is no part of the message.
    /// </summary>
    public const string AntiforgeryTokenKey = "__RequestVerificationToken";

    private readonly FormatOptions _options;

    public FormBinder(FormatOptions options)
        : base("form", ProtoHttp.MediaTypes.Form)
    {
        IsText = true;
        _options = options;
    }

    public override bool CanWrite => false;

    public override MessageCodec WithOptions(FormatOptions options) => new FormBinder(options);

    public override void Write(IMessage message, IBufferWriter<byte> output) =>
        throw new NotSupportedException("Form bodies are read, never written: answers go out in a codec that writes.");

    public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor)
    {
        var message = MessageFactory.Create(descriptor);
        // Canonical paths (proto names) of singular fields and map entries bound so far: a second value is a 400.
        var bound = new BoundPaths();
        FormRows? rows = null; // made by the first map row: most forms have none
        foreach (var (key, value) in FormPairs.Parse(body))
        {
            if (key == AntiforgeryTokenKey && descriptor.FindFieldByName(key) is null)
            {
                continue;
            }

            // labels[]=v is a map entry whose key is empty; tag[]=v a row of a repeated field.
            if (FormRows.IsRepeatedRow(key, out var field) && FormPath.FindLeaf(descriptor, field) is { IsMap: false })
            {
                BindRow(message, key, field, value, ref bound);
            }
            else if (FormRows.IsMapRowPart(key) && (rows ??= new()).TryCollect(key, value, out var map))
            {
                CheckMapRow(descriptor, key, map);
            }
            else
            {
                Bind(message, key, value, ref bound);
            }
        }

        if (rows is not null)
        {
            foreach (var (key, value) in rows.Entries())
            {
                Bind(message, key, value, ref bound);
            }
        }

        return message;
    }

    // labels[0].key and labels[0].value: parts of a row of a map, bound once the whole form is read; the map is
    // checked now, so a mistake names the key sent.
    private void CheckMapRow(MessageDescriptor descriptor, string key, string field) =>
        FormPath.Resolve(descriptor, field + "[]", _options, shownKey: key);

    // tag[]=value: a row of a repeated scalar, which adds nothing when it is left empty.
    private void BindRow(IMessage root, string key, string field, string value, ref BoundPaths bound)
    {
        var path = FormPath.Resolve(root.Descriptor, field, _options, shownKey: key);
        if (path is not null && (!path.Leaf.IsRepeated || path.Leaf.IsMap || path.MapKey is not null))
        {
            throw new InvalidMessageException($"Key '{key}': '{path.Leaf.Name}' is not a repeated scalar, so it has no [] rows.");
        }

        if (path is not null && value.Length > 0)
        {
            Bind(root, field, value, ref bound);
        }
    }

    private void Bind(IMessage root, string key, string value, ref BoundPaths bound)
    {
        var path = FormPath.Resolve(root.Descriptor, key, _options);
        if (path is null)
        {
            return; // An unknown name, and the options say to ignore those.
        }

        var field = path.Leaf;
        var valueField = path.MapKey is null ? field : FieldValues.EntryFields(field).Value;
        var isText = valueField.FieldType == FieldType.String
            || valueField.FieldType == FieldType.Message && valueField.MessageType.FullName == "google.protobuf.StringValue";
        if (value.Length == 0 && (!isText || path.InOneof))
        {
            // An empty HTML input: the field stays unset. A form shows every member of a oneof (and the fields of
            // those that are messages) and means the one filled in, so an empty one is unset even as a string.
            return;
        }

        if (!field.IsRepeated || path.MapKey is not null)
        {
            if (!bound.Add(path.Canonical))
            {
                throw new InvalidMessageException($"Key '{key}' has two values, but '{path.Canonical}' holds only one.");
            }
        }

        var parsed = Parse(key, valueField, FormTimestamp.FromLocal(valueField, value));
        var message = path.Parent(root);
        if (FieldValues.OneofConflict(message, field) is { } other)
        {
            throw new InvalidMessageException($"Key '{key}': '{field.Name}' and '{other.Name}' are both in oneof '{field.RealContainingOneof.Name}'; only one may be set.");
        }

        if (path.MapKey is { } mapKey)
        {
            FieldValues.Put(message, field, Parse(key, FieldValues.EntryFields(field).Key, mapKey), parsed);
        }
        else if (field.IsRepeated)
        {
            FieldValues.Add(message, field, parsed);
        }
        else
        {
            FieldValues.Set(message, field, parsed);
        }
    }

    private static object Parse(string key, FieldDescriptor field, string text)
    {
        try
        {
            return FieldText.Parse(field, text);
        }
        catch (ValueFormatException ex)
        {
            throw new InvalidMessageException($"Key '{key}': {ex.Message}", ex);
        }
    }
}

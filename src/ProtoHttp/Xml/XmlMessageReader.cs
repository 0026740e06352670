using System.Buffers;
using System.Runtime.InteropServices;
using System.Text;
using System.Xml;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Reads ProtoHttp XML (PROTOCOL.md section 4) into a message, streaming, with the UTF-8 text reader WCF uses for
/// untrusted SOAP (<see cref="XmlDictionaryReader.CreateTextReader(byte[], int, int, XmlDictionaryReaderQuotas)"/>):
/// it is about twice as fast as <c>XmlReader.Create</c> and knows no DTDs at all, so no entities beyond the
/// predefined five, nothing fetched, nothing expanded. Nesting is limited to
/// <see cref="FormatOptions.MaxDepth"/> messages, and every failure an <see cref="InvalidMessageException"/>.
/// </summary>
internal sealed class XmlMessageReader
{
    private readonly XmlReader _xml;
    private readonly FormatOptions _options;

    private XmlMessageReader(XmlReader xml, FormatOptions options)
    {
        _xml = xml;
        _options = options;
    }

    /// <summary>
    /// The reader's own limits. Sizes are left to the server's body limit; the element depth allows the deepest
    /// legitimate document (a message in a map entry's value is two elements deeper than its parent) so that
    /// <see cref="ReadFields"/> names the depth problem, while a deep subtree of unknown elements still stops.
    /// </summary>
    public static XmlDictionaryReaderQuotas Quotas(FormatOptions options)
    {
        var quotas = new XmlDictionaryReaderQuotas();
        XmlDictionaryReaderQuotas.Max.CopyTo(quotas);
        quotas.MaxDepth = (2 * options.MaxDepth) + 4;
        return quotas;
    }

    public static IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor, FormatOptions options, XmlDictionaryReaderQuotas quotas)
    {
        var message = MessageFactory.Create(descriptor);
        if (body.IsEmpty)
        {
            return message;
        }

        // The UTF-8 text reader is at its fastest over one array: a body in several segments is copied into one.
        byte[]? rented = null;
        if (!body.IsSingleSegment || !MemoryMarshal.TryGetArray(body.First, out var array))
        {
            rented = ArrayPool<byte>.Shared.Rent((int)body.Length);
            body.CopyTo(rented);
            array = new ArraySegment<byte>(rented, 0, (int)body.Length);
        }

        try
        {
            using var xml = XmlDictionaryReader.CreateTextReader(array.Array!, array.Offset, array.Count, quotas);
            // Any root name is accepted: clients name it after the message, "request", or anything else.
            if (xml.MoveToContent() != XmlNodeType.Element)
            {
                throw new InvalidMessageException("The XML body has no root element.");
            }

            new XmlMessageReader(xml, options).ReadFields(message, depth: 1);

            // Reading on checks that nothing but comments and whitespace follows the root.
            while (xml.Read())
            {
            }
        }
        catch (XmlException ex) when (array.AsSpan().IndexOf("<!DOCTYPE"u8) >= 0)
        {
            // The UTF-8 reader has no notion of a DTD and would call it a misplaced CDATA section.
            throw new InvalidMessageException("The XML body has a DTD (<!DOCTYPE>); DTDs and the entities they declare are not accepted.", ex);
        }
        catch (XmlException ex)
        {
            throw new InvalidMessageException($"The XML body is not well-formed: {ex.Message}", ex);
        }
        catch (DecoderFallbackException ex)
        {
            throw new InvalidMessageException("The XML body is not valid UTF-8.", ex);
        }
        catch (InvalidOperationException ex)
        {
            // XmlReader reports a few malformed inputs this way; they are still the client's fault.
            throw new InvalidMessageException($"The XML body could not be read: {ex.Message}", ex);
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }

        return message;
    }

    // On the start tag of a message's element; returns after its end tag.
    private void ReadFields(IMessage message, int depth)
    {
        if (depth > _options.MaxDepth)
        {
            throw new InvalidMessageException($"The XML nests messages deeper than {_options.MaxDepth} levels, at <{_xml.LocalName}>.");
        }

        if (_xml.IsEmptyElement)
        {
            _xml.Read();
            return;
        }

        var parent = _xml.LocalName;
        var seen = default(SeenFields);
        _xml.Read();
        while (true)
        {
            switch (_xml.MoveToContent())
            {
                case XmlNodeType.EndElement:
                    _xml.Read();
                    return;
                case XmlNodeType.Element:
                    ReadField(message, depth, ref seen);
                    break;
                case XmlNodeType.Text or XmlNodeType.CDATA:
                    throw new InvalidMessageException($"<{parent}> is a {message.Descriptor.Name} message; it holds field elements, not text.");
                default:
                    // Anything else (an entity reference, the end of input) is the XmlReader's to reject.
                    _xml.Read();
                    break;
            }
        }
    }

    private void ReadField(IMessage message, int depth, ref SeenFields seen)
    {
        var name = _xml.LocalName;
        var field = FieldLookup.Find(message.Descriptor, name);
        if (field is null)
        {
            if (_options.IgnoreUnknownFields)
            {
                _xml.Skip();
                return;
            }

            throw new InvalidMessageException($"Unknown element <{name}>: {message.Descriptor.Name} has no field '{name}'.");
        }

        if (field.IsMap)
        {
            ReadMapEntry(message, field, depth);
            return;
        }

        if (!field.IsRepeated && !seen.Add(field.Index))
        {
            throw new InvalidMessageException($"Element <{name}> appears twice, but field '{field.Name}' is not repeated.");
        }

        if (FieldValues.OneofConflict(message, field) is { } other)
        {
            throw new InvalidMessageException($"<{name}> and <{other.Name}> are both in oneof '{field.RealContainingOneof.Name}'; only one may be set.");
        }

        if (IsNested(field))
        {
            var child = field.IsRepeated ? MessageFactory.Create(field.MessageType) : FieldValues.Child(message, field);
            ReadFields(child, depth + 1);
            if (field.IsRepeated)
            {
                FieldValues.Add(message, field, child);
            }

            return;
        }

        var value = ReadValue(field, name);
        if (field.IsRepeated)
        {
            FieldValues.Add(message, field, value);
        }
        else
        {
            FieldValues.Set(message, field, value);
        }
    }

    // <labels><key>k</key><value>v</value></labels>; either child may be missing and then takes its default.
    private void ReadMapEntry(IMessage message, FieldDescriptor map, int depth)
    {
        var (keyField, valueField) = FieldValues.EntryFields(map);
        object? key = null;
        object? value = null;
        if (_xml.IsEmptyElement)
        {
            _xml.Read();
        }
        else
        {
            _xml.Read();
            while (_xml.MoveToContent() == XmlNodeType.Element)
            {
                var part = FieldLookup.Find(map.MessageType, _xml.LocalName);
                if (part == keyField && key is null)
                {
                    key = ReadValue(keyField, $"{map.Name}><key");
                }
                else if (part == valueField && value is null)
                {
                    value = IsNested(valueField) ? ReadNested(valueField, depth) : ReadValue(valueField, $"{map.Name}><value");
                }
                else
                {
                    throw new InvalidMessageException($"<{map.Name}> is a map entry; it holds one <key> and one <value>, not <{_xml.LocalName}>.");
                }
            }

            if (_xml.NodeType is XmlNodeType.Text or XmlNodeType.CDATA)
            {
                throw new InvalidMessageException($"<{map.Name}> is a map entry; it holds <key> and <value> elements, not text.");
            }

            _xml.ReadEndElement();
        }

        FieldValues.Put(message, map, key ?? FieldValues.DefaultValue(keyField), value ?? FieldValues.DefaultValue(valueField));
    }

    private IMessage ReadNested(FieldDescriptor field, int depth)
    {
        var child = MessageFactory.Create(field.MessageType);
        ReadFields(child, depth + 1);
        return child;
    }

    // On a leaf's start tag: its text (entity and character references resolved), parsed as the field's type.
    private object ReadValue(FieldDescriptor field, string where)
    {
        var text = ReadText(where);
        try
        {
            return FieldText.Parse(field, text);
        }
        catch (ValueFormatException ex)
        {
            throw new InvalidMessageException($"<{where}>: {ex.Message}", ex);
        }
    }

    // Concatenates text, CDATA and whitespace up to the end tag; XmlReader's own exceptions (malformed input) pass
    // through to be reported as such.
    private string ReadText(string where)
    {
        if (_xml.IsEmptyElement)
        {
            _xml.Read();
            return "";
        }

        string? text = null;
        StringBuilder? pieces = null;
        while (_xml.Read() && _xml.NodeType != XmlNodeType.EndElement)
        {
            if (_xml.NodeType == XmlNodeType.Element)
            {
                throw new InvalidMessageException($"<{where}> holds a value, so it cannot contain the element <{_xml.LocalName}>.");
            }

            if (_xml.NodeType is XmlNodeType.Text or XmlNodeType.CDATA or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace)
            {
                // Usually one text node; a builder only for text split by CDATA sections or comments.
                if (text is null)
                {
                    text = _xml.Value;
                }
                else
                {
                    (pieces ??= new StringBuilder(text)).Append(_xml.Value);
                }
            }
        }

        _xml.Read();
        var value = pieces?.ToString() ?? text ?? "";

        // The UTF-8 reader resolves character references such as &#0; without checking them; XML 1.0 forbids
        // them, and a value holding one could not be written back as XML.
        if (XmlText.FirstUnwritable(value) is var bad and >= 0)
        {
            throw new InvalidMessageException(
                $"The XML body is not well-formed: <{where}> holds a character reference to U+{bad:X4}, a character XML 1.0 does not allow.");
        }

        return value;
    }

    private static bool IsNested(FieldDescriptor field) =>
        field.FieldType is FieldType.Message or FieldType.Group && !WellKnownText.IsText(field.MessageType);
}

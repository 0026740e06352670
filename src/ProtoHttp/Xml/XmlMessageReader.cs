using System.Buffers;
using System.Runtime.InteropServices;
using System.Text;
using System.Xml;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// Reads ProtoHttp XML (docs/protocol.md section 4) into a message, streaming, with the UTF-8 text reader WCF uses for
/// untrusted SOAP (<see cref="XmlDictionaryReader.CreateTextReader(byte[], int, int, XmlDictionaryReaderQuotas)"/>):
/// it is about twice as fast as <c>XmlReader.Create</c> and knows no DTDs at all, so no entities beyond the
/// predefined five, nothing fetched, nothing expanded. Nesting is limited to
/// <see cref="FormatOptions.MaxDepth"/> messages, and every failure an <see cref="InvalidMessageException"/>.
/// Elements are matched and values stored through each message type's <see cref="XmlReadPlan"/>.
/// </summary>
internal sealed class XmlMessageReader
{
    private const int MinimumChunk = 16;

    private readonly XmlDictionaryReader _xml;
    private readonly FormatOptions _options;

    // Holds the text of one leaf at a time, so numbers and timestamps are parsed without a string each.
    private char[] _text = new char[64];

    private readonly bool _fastIntegers;

    private XmlMessageReader(XmlDictionaryReader xml, FormatOptions options, bool fastIntegers)
    {
        _xml = xml;
        _options = options;
        _fastIntegers = fastIntegers;
    }

    /// <summary>The XML being read, for field readers that walk an element's children themselves (map entries).</summary>
    public XmlDictionaryReader Xml => _xml;

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
        if (body.IsEmpty)
        {
            return MessageFactory.Create(descriptor);
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
            // Integer leaves are read from the reader's UTF-8 bytes where that is certain to agree with the protocol's
            // rules (see ReadIntegerFast); where it is not certain, the body is read again the exact way.
            if (array.AsSpan().IndexOf("&#"u8) < 0)
            {
                try
                {
                    return ReadBody(array, descriptor, options, quotas, fastIntegers: true);
                }
                catch (FastPathUnsureException)
                {
                }
            }

            return ReadBody(array, descriptor, options, quotas, fastIntegers: false);
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    private static IMessage ReadBody(ArraySegment<byte> array, MessageDescriptor descriptor, FormatOptions options, XmlDictionaryReaderQuotas quotas, bool fastIntegers)
    {
        var message = MessageFactory.Create(descriptor);
        try
        {
            using var xml = XmlDictionaryReader.CreateTextReader(array.Array!, array.Offset, array.Count, quotas);
            // Any root name is accepted: clients name it after the message, "request", or anything else.
            if (xml.MoveToContent() != XmlNodeType.Element)
            {
                throw new InvalidMessageException("The XML body has no root element.");
            }

            new XmlMessageReader(xml, options, fastIntegers).ReadFields(message, xml.LocalName, depth: 1);

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
            // Bad bytes in a name or value the reader decodes itself are an XmlException; in text read in chunks, this.
            throw new InvalidMessageException("The XML body is not well-formed: it is not valid UTF-8.", ex);
        }
        catch (InvalidOperationException ex)
        {
            // XmlReader reports a few malformed inputs this way; they are still the client's fault.
            throw new InvalidMessageException($"The XML body could not be read: {ex.Message}", ex);
        }

        return message;
    }

    /// <summary>
    /// On the start tag of a message's element, named <paramref name="element"/>, reads its fields into
    /// <paramref name="message"/>; returns after its end tag.
    /// </summary>
    public void ReadFields(IMessage message, string element, int depth)
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

        var plan = XmlReadPlan.For(message.Descriptor);
        var seen = default(SeenFields);
        var next = 0;
        _xml.Read();
        while (true)
        {
            // NodeType rather than MoveToContent, which costs a loop of virtual calls per element to skip what
            // the default case skips as well.
            switch (_xml.NodeType)
            {
                case XmlNodeType.EndElement:
                    _xml.Read();
                    return;
                case XmlNodeType.Element:
                    ReadField(plan, message, depth, ref seen, ref next);
                    break;
                case XmlNodeType.Text or XmlNodeType.CDATA:
                    throw new InvalidMessageException($"<{element}> is a {message.Descriptor.Name} message; it holds field elements, not text.");
                default:
                    // Comments, whitespace, processing instructions are skipped; anything else (an entity reference,
                    // the end of input) is the XmlReader's to reject.
                    _xml.Read();
                    break;
            }
        }
    }

    private void ReadField(XmlReadPlan plan, IMessage message, int depth, ref SeenFields seen, ref int next)
    {
        var reader = plan.Match(_xml, ref next, out var name);
        if (reader is null)
        {
            if (_options.IgnoreUnknownFields)
            {
                _xml.Skip();
                return;
            }

            throw new InvalidMessageException($"Unknown element <{name}>: {message.Descriptor.Name} has no field '{name}'.");
        }

        var field = reader.Field;
        if (!field.IsRepeated && !seen.Add(field.Index))
        {
            throw new InvalidMessageException($"Element <{name}> appears twice, but field '{field.Name}' is not repeated.");
        }

        if (FieldValues.OneofConflict(message, field) is { } other)
        {
            throw new InvalidMessageException($"<{name}> and <{other.Name}> are both in oneof '{field.RealContainingOneof.Name}'; only one may be set.");
        }

        reader.Read(this, message, name, depth);
    }

    /// <summary>
    /// On a leaf's start tag: its text (entity and character references resolved) up to the end tag, as characters
    /// valid until the next read. XmlReader's own exceptions (malformed input) pass through to be reported as such.
    /// </summary>
    public ReadOnlySpan<char> ReadChars(string where)
    {
        if (_xml.IsEmptyElement)
        {
            _xml.Read();
            return default;
        }

        var length = _xml.Read() ? AppendContent(where, 0) : 0;
        _xml.Read();
        return Checked(_text.AsSpan(0, length), where);
    }

    /// <summary>On a leaf's start tag: its text as a string (see <see cref="ReadChars"/>).</summary>
    public string ReadText(string where)
    {
        if (_xml.IsEmptyElement)
        {
            _xml.Read();
            return "";
        }

        if (!_xml.Read())
        {
            _xml.Read();
            return "";
        }

        // Usually one text node and the end tag: the reader's own string of it saves a copy through _text.
        if (_xml.NodeType == XmlNodeType.Text && TryGetValue() is { } text)
        {
            if (!_xml.Read() || _xml.NodeType == XmlNodeType.EndElement)
            {
                _xml.Read();
                Checked(text, where);
                return text;
            }

            // Text split by a comment or CDATA section: joined as ReadChars joins it.
            EnsureRoom(text.Length);
            text.CopyTo(_text);
            var joined = AppendContent(where, text.Length);
            _xml.Read();
            return new string(Checked(_text.AsSpan(0, joined), where));
        }

        var length = AppendContent(where, 0);
        _xml.Read();
        return length == 0 ? "" : new string(Checked(_text.AsSpan(0, length), where));
    }

    // The current text node's value, or null where the reader cannot decode it: ReadValueChunk then reads it again, so
    // that bad UTF-8 is reported as it is everywhere else (a DecoderFallbackException there, an XmlException here).
    private string? TryGetValue()
    {
        try
        {
            return _xml.Value;
        }
        catch (XmlException)
        {
            return null;
        }
    }

    /// <summary>
    /// On an integer leaf's start tag, in a body without character references: the value as the reader parses it
    /// from its UTF-8 bytes (<see cref="XmlReader.ReadContentAsInt"/>, <see cref="XmlReader.ReadContentAsLong"/>),
    /// which for one text node followed by the end tag accepts exactly the texts docs/protocol.md section 4 accepts,
    /// with the same values (XmlScalarBoundaryTests: the two differ only on character references). Anything else
    /// (no text node, text split by comments or CDATA, a text the reader refuses) throws
    /// <see cref="FastPathUnsureException"/>, and the body is read again the exact way, so acceptance and messages stay
    /// the protocol's.
    /// </summary>
    public bool TryReadIntegerFast<T>(out T value)
        where T : struct
    {
        if (!_fastIntegers)
        {
            value = default;
            return false;
        }

        if (_xml.IsEmptyElement || !_xml.Read() || _xml.NodeType != XmlNodeType.Text)
        {
            throw FastPathUnsureException.Instance;
        }

        try
        {
            value = typeof(T) == typeof(int) ? (T)(object)_xml.ReadContentAsInt() : (T)(object)_xml.ReadContentAsLong();
        }
        catch (Exception ex) when (ex is XmlException or FormatException or OverflowException or InvalidCastException or InvalidOperationException or ArgumentException)
        {
            throw FastPathUnsureException.Instance;
        }

        if (_xml.NodeType != XmlNodeType.EndElement)
        {
            throw FastPathUnsureException.Instance;
        }

        _xml.Read();
        return true;
    }

    // On a content node of a leaf: appends the text of it and what follows up to the leaf's end tag to _text from
    // <paramref name="length"/> on; returns the new length. Comments and processing instructions are skipped.
    private int AppendContent(string where, int length)
    {
        do
        {
            if (_xml.NodeType == XmlNodeType.EndElement)
            {
                break;
            }

            if (_xml.NodeType == XmlNodeType.Element)
            {
                throw new InvalidMessageException($"<{where}> holds a value, so it cannot contain the element <{_xml.LocalName}>.");
            }

            if (_xml.NodeType is XmlNodeType.Text or XmlNodeType.CDATA or XmlNodeType.Whitespace or XmlNodeType.SignificantWhitespace)
            {
                while (true)
                {
                    // Room for a surrogate pair at least: the reader does not split one, and with less room may end the text early.
                    EnsureRoom(length + MinimumChunk);
                    var read = _xml.ReadValueChunk(_text, length, _text.Length - length);
                    if (read == 0)
                    {
                        break;
                    }

                    length += read;
                }
            }
        }
        while (_xml.Read());

        return length;
    }

    private void EnsureRoom(int length)
    {
        if (_text.Length < length)
        {
            Array.Resize(ref _text, Math.Max(_text.Length * 2, length));
        }
    }

    // The UTF-8 reader resolves character references such as &#0; without checking them; XML 1.0 forbids them, and a
    // value holding one could not be written back as XML.
    private static ReadOnlySpan<char> Checked(ReadOnlySpan<char> value, string where)
    {
        if (XmlText.FirstUnwritable(value) is var bad and >= 0)
        {
            throw new InvalidMessageException(
                $"The XML body is not well-formed: <{where}> holds a character reference to U+{bad:X4}, a character XML 1.0 does not allow.");
        }

        return value;
    }

    /// <summary>On a leaf's start tag: its text parsed as <paramref name="field"/>'s type (boxed, as protobuf reflection wants it).</summary>
    public object ReadValue(FieldDescriptor field, string where)
    {
        var text = ReadText(where);
        try
        {
            return FieldText.Parse(field, text);
        }
        catch (ValueFormatException ex)
        {
            throw Invalid(where, ex);
        }
    }

    /// <summary>The exception for a leaf whose text is not a value of its field's type.</summary>
    public static InvalidMessageException Invalid(string where, ValueFormatException ex) => new($"<{where}>: {ex.Message}", ex);
}

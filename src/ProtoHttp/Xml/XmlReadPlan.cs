using System.Collections.Concurrent;
using System.Xml;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Xml;

/// <summary>
/// A message type's field readers, built once per type. Elements are matched against the proto names in field-number
/// order, the order the writer uses, comparing the reader's own name bytes without making a string; a name out of
/// that order, a JSON name or an unknown one is looked up by its string.
/// </summary>
internal sealed class XmlReadPlan
{
    private static readonly ConcurrentDictionary<MessageDescriptor, XmlReadPlan> Plans = new();
    private static readonly Func<MessageDescriptor, XmlReadPlan> Build = descriptor => new XmlReadPlan(descriptor);

    private readonly MessageDescriptor _descriptor;
    private readonly XmlFieldReader[] _inNumberOrder;
    private readonly XmlFieldReader[] _byIndex;

    private XmlReadPlan(MessageDescriptor descriptor)
    {
        _descriptor = descriptor;
        _byIndex = [.. descriptor.Fields.InDeclarationOrder().Select(field => XmlFieldReader.Create(field))];
        _inNumberOrder = [.. _byIndex.OrderBy(reader => reader.Field.FieldNumber)];
    }

    private static bool Matches(XmlDictionaryReader xml, XmlFieldReader reader, ref int next, int after, out string name)
    {
        name = reader.Field.Name;
        if (!xml.IsLocalName(name))
        {
            return false;
        }

        next = after;
        return true;
    }

    public static XmlReadPlan For(MessageDescriptor descriptor) => Plans.GetOrAdd(descriptor, Build);

    /// <summary>
    /// The reader of the field the current element names, or null for an unknown element. <paramref name="next"/>
    /// is where the search in field-number order starts, advanced past each match; <paramref name="name"/> is the
    /// element's name, for messages.
    /// </summary>
    public XmlFieldReader? Match(XmlDictionaryReader xml, ref int next, out string name)
    {
        // The field after the previous element's first (each name is compared with the reader's bytes, and an
        // element of a singular field is followed by the next field's), then the previous element's field again (a
        // repeated field's elements are siblings), then the fields after. Names are unique, so the order of the
        // comparisons changes only their number, not the field found.
        if (next > 0 && next < _inNumberOrder.Length && Matches(xml, _inNumberOrder[next], ref next, next + 1, out name))
        {
            return _inNumberOrder[next - 1];
        }

        for (var i = Math.Max(next - 1, 0); i < _inNumberOrder.Length; i++)
        {
            if (i != next || next == 0)
            {
                if (Matches(xml, _inNumberOrder[i], ref next, i + 1, out name))
                {
                    return _inNumberOrder[i];
                }
            }
        }

        name = xml.LocalName;
        return FieldLookup.Find(_descriptor, name) is { } field ? _byIndex[field.Index] : null;
    }
}

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

    public static XmlReadPlan For(MessageDescriptor descriptor) => Plans.GetOrAdd(descriptor, Build);

    /// <summary>
    /// The reader of the field the current element names, or null for an unknown element. <paramref name="next"/>
    /// is where the search in field-number order starts, advanced past each match; <paramref name="name"/> is the
    /// element's name, for messages.
    /// </summary>
    public XmlFieldReader? Match(XmlDictionaryReader xml, ref int next, out string name)
    {
        // From the previous element's field on, since a repeated field's elements are siblings.
        for (var i = Math.Max(next - 1, 0); i < _inNumberOrder.Length; i++)
        {
            var reader = _inNumberOrder[i];
            if (xml.IsLocalName(reader.Field.Name))
            {
                next = i + 1;
                name = reader.Field.Name;
                return reader;
            }
        }

        name = xml.LocalName;
        return FieldLookup.Find(_descriptor, name) is { } field ? _byIndex[field.Index] : null;
    }
}

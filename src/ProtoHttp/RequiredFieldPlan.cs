using System.Collections;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>
/// Where one message type can hold a proto2 <c>required</c> field: its own required fields, and the message fields
/// (singular, repeated, map values, groups, and the service's extensions of it, which is all a message-set holds)
/// whose types can. Built once per type and extension catalog, so a check walks only those fields, and a type that
/// can never hold one (every proto3 message) costs a dictionary lookup.
/// </summary>
/// <remarks>
/// Google.Protobuf's <c>IsInitialized()</c> would answer the same question, but it walks every field of every
/// message and throws on messages it cannot reflect over (a message-set field, for one).
/// </remarks>
internal sealed class RequiredFieldPlan
{
    private RequiredFieldPlan(FieldDescriptor[] required)
    {
        Required = required;
    }

    /// <summary>The type's own required fields, in field-number order.</summary>
    public FieldDescriptor[] Required { get; }

    /// <summary>The message fields below which a required field can be missing, with their types' plans.</summary>
    public (FieldDescriptor Field, RequiredFieldPlan Plan)[] Children { get; private set; } = [];

    /// <summary>The plan for <paramref name="descriptor"/>, or null when no required field can occur beneath it.</summary>
    public static RequiredFieldPlan? For(MessageDescriptor descriptor, ExtensionCatalog extensions)
    {
        if (extensions.RequiredFieldPlans.TryGetValue(descriptor, out var plan))
        {
            return plan;
        }

        BuildFrom(descriptor, extensions);
        return extensions.RequiredFieldPlans[descriptor];
    }

    private static void BuildFrom(MessageDescriptor root, ExtensionCatalog extensions)
    {
        var reachable = new List<MessageDescriptor>();
        Collect(root, extensions, new HashSet<MessageDescriptor>(), reachable);

        // Types can refer to each other in cycles, so "can hold a required field" is settled as a fixed point.
        var holds = reachable.Where(type => type.Fields.InFieldNumberOrder().Any(field => field.IsRequired)).ToHashSet();
        for (var changed = true; changed;)
        {
            changed = false;
            foreach (var type in reachable)
            {
                if (!holds.Contains(type) && MessageFields(type, extensions).Any(field => holds.Contains(ValueType(field))))
                {
                    changed |= holds.Add(type);
                }
            }
        }

        var plans = holds.ToDictionary(type => type, type => new RequiredFieldPlan(
            type.Fields.InFieldNumberOrder().Where(field => field.IsRequired).ToArray()));
        foreach (var (type, plan) in plans)
        {
            plan.Children = MessageFields(type, extensions)
                .Where(field => plans.ContainsKey(ValueType(field)))
                .Select(field => (field, plans[ValueType(field)]))
                .ToArray();
        }

        foreach (var type in reachable)
        {
            extensions.RequiredFieldPlans.TryAdd(type, plans.GetValueOrDefault(type));
        }
    }

    private static void Collect(MessageDescriptor type, ExtensionCatalog extensions, HashSet<MessageDescriptor> seen, List<MessageDescriptor> reachable)
    {
        if (!seen.Add(type))
        {
            return;
        }

        reachable.Add(type);
        foreach (var field in MessageFields(type, extensions))
        {
            Collect(ValueType(field), extensions, seen, reachable);
        }
    }

    // Extensions are never required themselves (protoc refuses it), but the messages they hold can have required fields.
    private static IEnumerable<FieldDescriptor> MessageFields(MessageDescriptor type, ExtensionCatalog extensions) =>
        type.Fields.InFieldNumberOrder().Concat(extensions.For(type)).Where(field => field.IsMap
            ? field.MessageType.FindFieldByNumber(2).FieldType is FieldType.Message or FieldType.Group
            : field.FieldType is FieldType.Message or FieldType.Group);

    /// <summary>The message type a field holds: a map field's value type, else the field's own.</summary>
    private static MessageDescriptor ValueType(FieldDescriptor field) =>
        field.IsMap ? field.MessageType.FindFieldByNumber(2).MessageType : field.MessageType;

    /// <summary>Adds the path of every required field missing at or below <paramref name="message"/>.</summary>
    public void CollectMissing(IMessage message, string prefix, ref List<string>? missing)
    {
        foreach (var field in Required)
        {
            if (!field.Accessor.HasValue(message))
            {
                (missing ??= []).Add(prefix + field.Name);
            }
        }

        foreach (var (field, plan) in Children)
        {
            // Extensions by their JSON key, which is also how a client names them.
            var path = prefix + (field.IsExtension ? $"[{field.FullName}]" : field.Name);
            var value = field.Accessor.GetValue(message);
            if (value is null)
            {
                // An unset message field; or an unset repeated extension, which reads as null rather than empty
                // (what makes IsInitialized() throw).
                continue;
            }

            if (field.IsMap)
            {
                foreach (DictionaryEntry entry in (IDictionary)value)
                {
                    plan.CollectMissing((IMessage)entry.Value!, $"{path}[{entry.Key}].", ref missing);
                }
            }
            else if (field.IsRepeated)
            {
                var index = 0;
                foreach (IMessage item in (IList)value)
                {
                    plan.CollectMissing(item, $"{path}[{index++}].", ref missing);
                }
            }
            else
            {
                plan.CollectMissing((IMessage)value, path + ".", ref missing);
            }
        }
    }
}

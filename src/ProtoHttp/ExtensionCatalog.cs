using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>
/// The proto2 extensions a service's files and their imports declare, by the message each extends, so JSON can read
/// and write them under their <c>[full.name]</c> keys as the protobuf JSON mapping says. Built once per service.
/// </summary>
internal sealed class ExtensionCatalog
{
    private readonly Dictionary<MessageDescriptor, FieldDescriptor[]> _byExtendee;

    private ExtensionCatalog(Dictionary<MessageDescriptor, FieldDescriptor[]> byExtendee) => _byExtendee = byExtendee;

    public static ExtensionCatalog Empty { get; } = new([]);

    public bool IsEmpty => _byExtendee.Count == 0;

    /// <summary>
    /// Where each message type can hold a required field, given these extensions (<see cref="RequiredFieldPlan"/>):
    /// kept here because the catalog is what a plan depends on, so a call looks it up by type alone.
    /// </summary>
    internal ConcurrentDictionary<MessageDescriptor, RequiredFieldPlan?> RequiredFieldPlans { get; } = new();

    /// <summary>Every extension declared in <paramref name="files"/> and the files they import, at any depth.</summary>
    public static ExtensionCatalog FromFiles(IEnumerable<FileDescriptor> files)
    {
        // Under Native AOT Google.Protobuf's extension accessors throw ("Extensions reflection is not supported with
        // AOT"): there JSON writes no extension, as JsonFormatter does, and reads their keys as unknown fields.
        if (!RuntimeFeature.IsDynamicCodeSupported)
        {
            return Empty;
        }

        var seen = new HashSet<FileDescriptor>();
        var pending = new Stack<FileDescriptor>(files);
        var extensions = new List<FieldDescriptor>();
        while (pending.TryPop(out var file))
        {
            if (!seen.Add(file))
            {
                continue;
            }

            extensions.AddRange(file.Extensions.UnorderedExtensions);
            foreach (var message in file.MessageTypes)
            {
                AddNested(message, extensions);
            }

            foreach (var dependency in file.Dependencies)
            {
                pending.Push(dependency);
            }
        }

        // Only extensions the generated code can set: those with an Extension object, which is what its accessor uses.
        var byExtendee = extensions.Where(field => field.Extension is not null)
            .GroupBy(field => field.ExtendeeType)
            .ToDictionary(group => group.Key, group => group.OrderBy(field => field.FieldNumber).ToArray());
        return byExtendee.Count == 0 ? Empty : new ExtensionCatalog(byExtendee);
    }

    /// <summary>The extensions of <paramref name="descriptor"/>, by field number.</summary>
    public IReadOnlyList<FieldDescriptor> For(MessageDescriptor descriptor) =>
        _byExtendee.TryGetValue(descriptor, out var fields) ? fields : [];

    private static void AddNested(MessageDescriptor message, List<FieldDescriptor> extensions)
    {
        extensions.AddRange(message.Extensions.UnorderedExtensions);
        foreach (var nested in message.NestedTypes)
        {
            AddNested(nested, extensions);
        }
    }
}

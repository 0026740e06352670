using Google.Protobuf;

namespace ProtoHttp;

/// <summary>Names the proto2 <c>required</c> fields a message lacks, so the 400 says which ones.</summary>
internal static class RequiredFields
{
    /// <summary>Throws when a required field, at any depth, is missing; inside <paramref name="extensions"/> too.</summary>
    /// <exception cref="InvalidMessageException">One or more required fields are not set.</exception>
    public static void Check(IMessage message, ExtensionCatalog extensions)
    {
        if (RequiredFieldPlan.For(message.Descriptor, extensions) is not { } plan)
        {
            return;
        }

        // Made only for the first missing field: a valid message, the common case, costs no list.
        List<string>? missing = null;
        plan.CollectMissing(message, prefix: "", ref missing);
        if (missing is null)
        {
            return;
        }

        throw new InvalidMessageException(missing.Count == 1
            ? $"Missing required field '{missing[0]}'."
            : $"Missing required fields: {string.Join(", ", missing.Select(name => $"'{name}'"))}.");
    }
}

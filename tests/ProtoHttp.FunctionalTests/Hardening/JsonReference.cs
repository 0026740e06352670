using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Google.Protobuf's <see cref="JsonParser"/> as the server's JSON reader is meant to be: the same
/// IgnoreUnknownFields, the same depth (JsonParser does not count the root message, so the server's limit less one,
/// as the reader's unit tests in ProtoHttp.Tests set it), and the Any types the server has: the hardening file's,
/// its imports' and the well-known types.
/// </summary>
public sealed class JsonReference(bool ignoreUnknownFields, int maxDepth)
{
    private static readonly TypeRegistry AnyTypes = TypeRegistry.FromFiles(
        HardeningReflection.Descriptor, AnyReflection.Descriptor, ApiReflection.Descriptor, DurationReflection.Descriptor,
        EmptyReflection.Descriptor, FieldMaskReflection.Descriptor, SourceContextReflection.Descriptor, StructReflection.Descriptor,
        TimestampReflection.Descriptor, TypeReflection.Descriptor, WrappersReflection.Descriptor);

    private readonly JsonParser _parser = new(Settings(ignoreUnknownFields, maxDepth).WithTypeRegistry(AnyTypes));

    /// <summary>What the reference makes of a body: the message, or why it refused.</summary>
    public (IMessage? Message, string? Refusal) Parse(string json, MessageDescriptor descriptor) => Parse(_parser, json, descriptor);

    private static JsonParser.Settings Settings(bool ignoreUnknownFields, int maxDepth) =>
        JsonParser.Settings.Default.WithIgnoreUnknownFields(ignoreUnknownFields).WithRecursionLimit(maxDepth - 1);

    private static (IMessage?, string?) Parse(JsonParser parser, string json, MessageDescriptor descriptor)
    {
        try
        {
            return (parser.Parse(json, descriptor), null);
        }
        catch (Exception ex) when (ex is InvalidJsonException or InvalidProtocolBufferException or FormatException or OverflowException
            or ArgumentException or InvalidOperationException)
        {
            return (null, $"{ex.GetType().Name}: {ex.Message}");
        }
    }
}

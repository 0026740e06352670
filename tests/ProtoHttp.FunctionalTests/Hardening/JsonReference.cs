using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Google.Protobuf's <see cref="JsonParser"/> as the server's JSON reader is meant to be: the same
/// IgnoreUnknownFields, the same depth (JsonParser does not count the root message, so the server's limit less one,
/// as the reader's unit tests in ProtoHttp.Tests set it), and a TypeRegistry of the hardening file's types.
/// </summary>
public sealed class JsonReference(bool ignoreUnknownFields, int maxDepth)
{
    private readonly JsonParser _parser = new(Settings(ignoreUnknownFields, maxDepth).WithTypeRegistry(TypeRegistry.FromFiles(HardeningReflection.Descriptor)));

    // The server's own JsonParser has no TypeRegistry: told apart from real differences, see JsonDifferential.
    private readonly JsonParser _withoutRegistry = new(Settings(ignoreUnknownFields, maxDepth));

    /// <summary>What the reference makes of a body: the message, or why it refused.</summary>
    public (IMessage? Message, string? Refusal) Parse(string json, MessageDescriptor descriptor) => Parse(_parser, json, descriptor);

    /// <summary>The same, with the empty TypeRegistry the server's JsonParser has.</summary>
    public (IMessage? Message, string? Refusal) ParseWithoutRegistry(string json, MessageDescriptor descriptor) => Parse(_withoutRegistry, json, descriptor);

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

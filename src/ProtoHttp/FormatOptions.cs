using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>How the text formats read and write messages; shared by every codec of one service.</summary>
/// <remarks>
/// Public because it configures <see cref="MessageCodecs"/>: the server builds one per service from
/// <c>ProtoHttpOptions</c>, the client one per invoker.
/// </remarks>
public sealed record FormatOptions
{
    /// <summary>The defaults of docs/protocol.md sections 4 and 7: unknown names rejected, JSON names out, depth 100.</summary>
    public static FormatOptions Default { get; } = new();

    /// <summary>Ignore unknown field names in JSON, XML and form input instead of answering 400.</summary>
    public bool IgnoreUnknownFields { get; init; }

    /// <summary>Write JSON with the proto field names (<c>page_number</c>) instead of lowerCamelCase.</summary>
    public bool PreserveProtoFieldNames { get; init; }

    /// <summary>The deepest nesting of messages any input may have.</summary>
    public int MaxDepth { get; init; } = 100;

    /// <summary>The proto2 extensions JSON reads and writes: those of the service's files.</summary>
    internal ExtensionCatalog Extensions { get; init; } = ExtensionCatalog.Empty;

    /// <summary>
    /// The message types a <c>google.protobuf.Any</c> may hold in JSON (whose form names the type and spells out its
    /// fields): those of the service's files, their imports, and the types configured for types that live elsewhere.
    /// </summary>
    /// <remarks>
    /// Built on first use (an Any met in JSON, or a value JsonParser reads): loading the well-known types' descriptors
    /// and indexing every message of the files is startup time and memory that a service that never meets an Any in
    /// JSON, or answers only protobuf, does not spend.
    /// </remarks>
    internal TypeRegistry AnyTypes
    {
        get => AnyTypeSource?.Value ?? TypeRegistry.Empty;
        init => AnyTypeSource = new Lazy<TypeRegistry>(value);
    }

    /// <summary>Whether <see cref="AnyTypes"/> may hold types, known without building it.</summary>
    internal bool HasAnyTypes => AnyTypeSource is not null;

    private Lazy<TypeRegistry>? AnyTypeSource { get; init; }

    /// <summary>
    /// These options with the proto2 extensions declared in <paramref name="files"/>, which JSON then reads and writes
    /// by their <c>[full.name]</c> and the required-field check looks inside.
    /// </summary>
    public FormatOptions WithExtensionsOf(IEnumerable<FileDescriptor> files) => this with { Extensions = ExtensionCatalog.FromFiles(files) };

    /// <summary>
    /// These options with the message types a <c>google.protobuf.Any</c> may hold in JSON: those of
    /// <paramref name="files"/> and of every file they import, plus protobuf's well-known types.
    /// </summary>
    public FormatOptions WithAnyTypesOf(IEnumerable<FileDescriptor> files)
    {
        FileDescriptor[] taken = [.. files];
        return this with { AnyTypeSource = new Lazy<TypeRegistry>(() => AnyTypeRegistry.FromFiles(taken)) };
    }
}

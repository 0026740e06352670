using System.Buffers;
using System.Collections.Concurrent;
using System.Globalization;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// Writes messages as UTF-8 JSON byte for byte as Google.Protobuf's <see cref="JsonFormatter"/> (default settings
/// and the given field naming) would, straight into the output and without boxing or per-value strings. Each
/// message type gets a <see cref="JsonMessagePlan"/> once; well-known types other than Timestamp, and any field the
/// plan cannot model, are written by JsonFormatter itself so its rules are never guessed.
/// </summary>
internal sealed class JsonMessageWriter
{
    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    // One text buffer per thread for delegated values; JsonFormatter never calls back into this writer.
    [ThreadStatic]
    private static StringWriter? t_text;

    private readonly ConcurrentDictionary<MessageDescriptor, JsonMessagePlan> _plans = new();
    private readonly Func<MessageDescriptor, JsonMessagePlan> _build;

    private readonly FormatOptions _options;

    private JsonMessageWriter(FormatOptions options)
    {
        _options = options;
        PreserveProtoFieldNames = options.PreserveProtoFieldNames;
        Extensions = options.Extensions;
        MaxDepth = options.MaxDepth;
        Formatter = new JsonFormatter(JsonFormatter.Settings.Default.WithPreserveProtoFieldNames(PreserveProtoFieldNames));
        AnyWriter = new JsonAnyWriter(this);
        _build = descriptor => new JsonMessagePlan(this, JsonPlanBuilder.Build(this, descriptor));
    }

    public bool PreserveProtoFieldNames { get; }

    public JsonFormatter Formatter { get; }

    /// <summary>The extensions written as <c>[full.name]</c> keys.</summary>
    public ExtensionCatalog Extensions { get; }

    /// <summary>The types an <c>Any</c> can be written holding.</summary>
    public TypeRegistry AnyTypes => _options.AnyTypes;

    /// <summary>The deepest message nesting an <c>Any</c> is unpacked to.</summary>
    public int MaxDepth { get; }

    /// <summary>Writes every <c>Any</c>, as a field value or at the root.</summary>
    public JsonAnyWriter AnyWriter { get; }

    /// <summary>
    /// The writer (and plan cache) for <paramref name="options"/>: shared by every service with default options and
    /// no extensions or Any types, else one for the service.
    /// </summary>
    public static JsonMessageWriter For(FormatOptions options) =>
        !options.Extensions.IsEmpty || options.HasAnyTypes || options.MaxDepth != FormatOptions.Default.MaxDepth
            ? new(options)
        : options.PreserveProtoFieldNames ? ProtoNames : JsonNames;

    private static JsonMessageWriter ProtoNames { get; } = new(new FormatOptions { PreserveProtoFieldNames = true });

    private static JsonMessageWriter JsonNames { get; } = new(FormatOptions.Default);

    public void Write(IMessage message, IBufferWriter<byte> output)
    {
        var json = new Utf8Output(output);
        JsonWriteDepth.Reset();
        if (message is Google.Protobuf.WellKnownTypes.Any any)
        {
            AnyWriter.Write(ref json, any);
        }
        else if (IsWellKnown(message.Descriptor))
        {
            // JsonFormatter writes a well-known type at the root in its special form too (Empty as "{ }").
            WriteDelegated(ref json, message);
        }
        else
        {
            PlanFor(message.Descriptor).Write(ref json, message);
        }

        json.Flush();
    }

    /// <summary>
    /// Types JsonFormatter may write in a special form. Its own test is internal; every type of the google.protobuf
    /// package is taken instead, which at worst delegates an ordinary message to JsonFormatter.
    /// </summary>
    public static bool IsWellKnown(MessageDescriptor descriptor) => descriptor.File.Package == "google.protobuf";

    public JsonMessagePlan PlanFor(MessageDescriptor descriptor) => _plans.GetOrAdd(descriptor, _build);

    /// <summary>Writes a field value (message, scalar or collection) through <see cref="JsonFormatter.WriteValue(TextWriter, object)"/>.</summary>
    public void WriteDelegated(ref Utf8Output output, object value)
    {
        var text = t_text ??= new StringWriter(CultureInfo.InvariantCulture);
        var builder = text.GetStringBuilder();
        builder.Clear();
        NonFiniteValues.ThrowIfAny(value);
        Formatter.WriteValue(text, value);

        // Chunks cannot split a surrogate pair: JsonFormatter escapes every pair as \uXXXX\uXXXX.
        foreach (var chunk in builder.GetChunks())
        {
            var span = output.Reserve(Utf8.GetMaxByteCount(chunk.Length));
            output.Advance(Utf8.GetBytes(chunk.Span, span));
        }

        if (builder.Capacity > 64 * 1024)
        {
            // Do not keep a large buffer alive per thread after one big value.
            t_text = null;
        }
    }
}

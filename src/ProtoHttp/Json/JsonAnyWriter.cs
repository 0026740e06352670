using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// <c>google.protobuf.Any</c> as the protobuf JSON mapping and JsonFormatter write it: <c>{ "@type": url, ... }</c>
/// with the packed message's fields after the type, or its well-known JSON form under <c>"value"</c>. The type comes
/// from the service's registry; one it does not know cannot be written (406, as JsonFormatter throws). Natively
/// rather than by JsonFormatter, so nested <c>Any</c>s count against the depth limit (see <see cref="JsonWriteDepth"/>).
/// </summary>
internal sealed class JsonAnyWriter(JsonMessageWriter owner) : JsonValueWriter<Any>
{
    public override void Write(ref Utf8Output output, Any value)
    {
        if (value.TypeUrl.Length == 0)
        {
            // JsonFormatter's way with an Any that names no type, whatever its bytes: the empty object.
            output.Write("{ }"u8);
            return;
        }

        var typeName = Any.GetTypeName(value.TypeUrl);
        var descriptor = owner.AnyTypes.Find(typeName)
            ?? throw new InvalidOperationException($"Type registry has no descriptor for type name '{typeName}'");
        if (JsonWriteDepth.Current >= owner.MaxDepth)
        {
            throw new InvalidOperationException($"An Any holding {typeName} nests messages deeper than {owner.MaxDepth}.");
        }

        // The parser's own nesting limit bounds the payload; nested Anys in it are checked as they are written.
        var message = descriptor.Parser.ParseFrom(value.Value);
        output.Write("{ \"@type\": "u8);
        JsonStringText.Write(ref output, value.TypeUrl);
        JsonWriteDepth.Enter();
        if (descriptor.FullName == Any.Descriptor.FullName)
        {
            output.Write(", \"value\": "u8);
            Write(ref output, (Any)message);
        }
        else if (AnyTypeRegistry.IsWellKnown(descriptor))
        {
            output.Write(", \"value\": "u8);
            owner.WriteDelegated(ref output, message);
        }
        else
        {
            owner.PlanFor(descriptor).WriteFieldsAfter(ref output, message, descriptor);
        }

        JsonWriteDepth.Exit();
        output.Write(" }"u8);
    }
}

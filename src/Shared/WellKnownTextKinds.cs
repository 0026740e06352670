using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp;

/// <summary>
/// Which well-known types travel as one text value in XML, forms and query strings (docs/protocol.md section 4): the
/// codecs (ProtoHttp) format them, and the OpenAPI description (ProtoHttp.AspNetCore.OpenApi) lists them as query
/// parameters. Compiled into both, so the two never disagree.
/// </summary>
internal static class WellKnownTextKinds
{
    /// <summary>The text form of values of this message type, or <see cref="WellKnownTextKind.None"/>.</summary>
    public static WellKnownTextKind Of(MessageDescriptor descriptor)
    {
        if (descriptor.File.Package != "google.protobuf")
        {
            return WellKnownTextKind.None;
        }

        return descriptor.FullName switch
        {
            "google.protobuf.Timestamp" => WellKnownTextKind.Timestamp,
            "google.protobuf.Duration" => WellKnownTextKind.Duration,
            "google.protobuf.FieldMask" => WellKnownTextKind.FieldMask,
            "google.protobuf.Struct" or "google.protobuf.Value" or "google.protobuf.ListValue" => WellKnownTextKind.Json,
            "google.protobuf.Empty" => WellKnownTextKind.Empty,
            _ when descriptor.File == WrappersReflection.Descriptor => WellKnownTextKind.Wrapper,
            // Any needs a type registry to have a JSON form; without one it is left as nested elements.
            _ => WellKnownTextKind.None,
        };
    }

    /// <summary>Whether values of this message type are written as text rather than as nested elements.</summary>
    public static bool IsText(MessageDescriptor descriptor) => Of(descriptor) != WellKnownTextKind.None;
}

/// <summary>The text forms of the well-known types.</summary>
internal enum WellKnownTextKind
{
    None,
    Timestamp,
    Duration,
    Wrapper,
    FieldMask,
    Json,
    Empty,
}

using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Endpoint metadata on every method endpoint <c>MapProtoService</c> maps: what a description of the endpoint (an
/// OpenAPI document) needs beyond its <see cref="MethodDescriptor"/>, decided once where the endpoint is mapped.
/// </summary>
/// <param name="Method">The protobuf method the endpoint calls.</param>
/// <param name="Protocol">Whether the endpoint is ProtoHttp's <c>/B/{Method}</c> route or Connect's procedure path.</param>
/// <param name="FormatSuffix">The suffix that forces the response format (<c>.json</c>, <c>.xml</c>...); empty on the plain route.</param>
/// <param name="AllowsGet">Whether the endpoint answers GET as well as POST.</param>
/// <param name="ProtoSource">The .proto file's text as embedded in the application, or null where it is not.</param>
internal sealed record ProtoHttpMethodMetadata(
    MethodDescriptor Method,
    ProtoHttpProtocol Protocol,
    string FormatSuffix,
    bool AllowsGet,
    Lazy<byte[]?> ProtoSource);

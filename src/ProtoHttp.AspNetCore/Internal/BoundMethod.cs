using Google.Protobuf.Reflection;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>A method the binder found, ready to be mapped: its name, endpoint metadata and call handler.</summary>
/// <param name="Name">The proto method name, exact and case-sensitive: the last route segment.</param>
/// <param name="Descriptor">The protobuf description: input and output types, options.</param>
/// <param name="Metadata">Attributes of the service method (<c>[Authorize]</c> and the like) for its endpoints.</param>
/// <param name="Routes">The paths the method answers at: its name, and its name with each suffix that forces a format.</param>
/// <param name="ConnectHandler">Serves one call in the Connect protocol; null where Connect is off or not yet served.</param>
/// <param name="GrpcWebHandler">Serves one call in gRPC-Web; null where gRPC-Web is off or the method kind has none.</param>
internal sealed record BoundMethod(
    string Name,
    MethodDescriptor Descriptor,
    IReadOnlyList<object> Metadata,
    IReadOnlyList<MethodRoute> Routes,
    RequestDelegate? ConnectHandler = null,
    RequestDelegate? GrpcWebHandler = null);

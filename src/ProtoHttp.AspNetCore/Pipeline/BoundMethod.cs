using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// A method the binder found, ready for the protocols to map: what it is, its endpoint metadata, and how its kind
/// serves a call on a route (the kind's <see cref="ServerCallHandler{TService, TRequest, TResponse}"/> over its invoker).
/// </summary>
/// <param name="Method">The gRPC method: its exact, case-sensitive name, its service and its kind.</param>
/// <param name="Descriptor">The protobuf description: input and output types, options.</param>
/// <param name="Metadata">Attributes of the service method (<c>[Authorize]</c> and the like) for its endpoints.</param>
/// <param name="Handler">Makes the handler of one route of the method.</param>
internal sealed record BoundMethod(IMethod Method, MethodDescriptor Descriptor, IReadOnlyList<object> Metadata, Func<CallRoute, RequestDelegate> Handler)
{
    public string Name => Method.Name;
}

using System.Diagnostics.CodeAnalysis;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// One interceptor added to <see cref="ProtoHttpInterceptorCollection"/>: its type, its own constructor arguments,
/// and whether it was added for every service (<c>AddProtoHttp</c>) rather than for one (<c>AddServiceOptions</c>).
/// </summary>
internal sealed record InterceptorRegistration(
    [property: DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] Type Type,
    object[] Args,
    bool Global);

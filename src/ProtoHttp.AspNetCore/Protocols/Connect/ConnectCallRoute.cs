using System.Diagnostics.CodeAnalysis;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>A Connect endpoint's route, with what Connect alone decides once per service.</summary>
internal sealed record ConnectCallRoute : CallRoute
{
    /// <summary>A route whose initializer sets every required property itself.</summary>
    public ConnectCallRoute()
    {
    }

    /// <summary>A route of <paramref name="method"/> at <paramref name="pattern"/> (<see cref="CallRoute(CallProtocol, BoundMethod, ServiceEndpoints, string)"/>) answering in <paramref name="responseTypes"/>.</summary>
    [SetsRequiredMembers]
    public ConnectCallRoute(CallProtocol protocol, BoundMethod method, ServiceEndpoints service, string pattern, WritableMediaType[] responseTypes)
        : base(protocol, method, service, pattern)
    {
        ResponseTypes = responseTypes;
    }

    /// <summary>What a unary answer in each of the service's envelope codecs goes out as (<c>application/{name}</c>), built once per service.</summary>
    public required WritableMediaType[] ResponseTypes { get; init; }
}

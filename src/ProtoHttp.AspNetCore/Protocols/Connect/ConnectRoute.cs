using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>A Connect endpoint's route, with what Connect alone decides once per service.</summary>
internal sealed record ConnectRoute : CallRoute
{
    /// <summary>What a unary answer in each of the service's envelope codecs goes out as (<c>application/{name}</c>), built once per service.</summary>
    public required WritableMediaType[] ResponseTypes { get; init; }
}

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>Marks an endpoint that answers the Connect protocol, for <see cref="GrpcOrConnectMatcherPolicy"/>.</summary>
internal sealed class ConnectEndpointMetadata
{
    public static ConnectEndpointMetadata Instance { get; } = new();
}

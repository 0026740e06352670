namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>Marks the endpoints that answer gRPC-Web, for <see cref="GrpcWebMatcherPolicy"/>.</summary>
internal sealed class GrpcWebEndpointMetadata
{
    public static GrpcWebEndpointMetadata Instance { get; } = new();

    private GrpcWebEndpointMetadata()
    {
    }
}

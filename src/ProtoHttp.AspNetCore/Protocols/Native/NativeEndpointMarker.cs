namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>What a native endpoint is to <see cref="UnknownMethodRoutePolicy"/>: a method's route, or a service's catch-all for unknown methods.</summary>
internal sealed class NativeEndpointMarker
{
    public static readonly NativeEndpointMarker Method = new();
    public static readonly NativeEndpointMarker UnknownMethod = new();

    private NativeEndpointMarker()
    {
    }
}

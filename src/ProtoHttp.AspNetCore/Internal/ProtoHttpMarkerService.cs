namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Registered by <c>AddProtoHttp()</c> so that mapping a service without it fails with a clear sentence.</summary>
internal sealed class ProtoHttpMarkerService;

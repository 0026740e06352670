using System.Net;
using System.Net.Sockets;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>Loopback ports nobody listens on now, for servers that must be told their port before they start.</summary>
public static class LoopbackPort
{
    public static int Free()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}

using System.Net;
using System.Net.Sockets;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A loopback port that listens and never accepts: the address an XXE payload points at, so a test can prove the
/// server fetched nothing. A connection made to it waits in the listen queue, where <see cref="AnyConnected"/> sees
/// it the moment the connecting side has it, with no accept loop to lag behind.
/// </summary>
public sealed class ConnectionWatcher : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);

    public ConnectionWatcher()
    {
        _listener.Start();
        Address = new Uri($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");
    }

    public Uri Address { get; }

    /// <summary>Whether anyone has connected: a connection nobody accepted stays queued, even after its side closed it.</summary>
    public bool AnyConnected => _listener.Pending();

    public void Dispose() => _listener.Stop();
}

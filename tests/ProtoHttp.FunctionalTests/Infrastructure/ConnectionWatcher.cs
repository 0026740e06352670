using System.Net;
using System.Net.Sockets;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// A loopback port that counts who connects to it and answers nobody: the address an XXE payload points at, so a
/// test can prove the server fetched nothing.
/// </summary>
public sealed class ConnectionWatcher : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Task _accepting;
    private int _connections;

    public ConnectionWatcher()
    {
        _listener.Start();
        Address = new Uri($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");
        _accepting = AcceptAsync();
    }

    public Uri Address { get; }

    public int Connections => Volatile.Read(ref _connections);

    private async Task AcceptAsync()
    {
        try
        {
            while (true)
            {
                using var client = await _listener.AcceptTcpClientAsync();
                Interlocked.Increment(ref _connections);
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            // Stopped.
        }
    }

    public void Dispose()
    {
        _listener.Stop();
        _accepting.Wait(TimeSpan.FromSeconds(5));
    }
}

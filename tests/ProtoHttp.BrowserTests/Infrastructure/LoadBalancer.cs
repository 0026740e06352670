using System.Net;
using System.Net.Sockets;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// One loopback address in front of the sample's instances, as a load balancer with no affinity is: each new
/// connection goes to the instance <see cref="Target"/> names now, and one whose instance is gone is closed, so the
/// browser sees its stream break and connects again through the same address. Bytes pass through untouched.
/// </summary>
public sealed class LoadBalancer : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _accepting;
    private volatile Uri _target;

    public LoadBalancer(Uri target)
    {
        _target = target;
        _listener.Start();
        Address = new Uri($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}");
        _accepting = AcceptAsync();
    }

    public Uri Address { get; }

    /// <summary>The instance new connections go to; connections already open stay where they are.</summary>
    public Uri Target
    {
        get => _target;
        set => _target = value;
    }

    private async Task AcceptAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            TcpClient client;
            try
            {
                client = await _listener.AcceptTcpClientAsync(_stopping.Token);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            _ = ForwardAsync(client, _target);
        }
    }

    private async Task ForwardAsync(TcpClient client, Uri target)
    {
        using (client)
        using (var instance = new TcpClient())
        {
            try
            {
                await instance.ConnectAsync(target.Host, target.Port, _stopping.Token);
                var fromBrowser = client.GetStream().CopyToAsync(instance.GetStream(), _stopping.Token);
                var toBrowser = instance.GetStream().CopyToAsync(client.GetStream(), _stopping.Token);
                // Either side ending ends the pair, as a proxy closes the client's connection when its upstream goes.
                await Task.WhenAny(fromBrowser, toBrowser);
            }
            catch (Exception e) when (e is SocketException or IOException or OperationCanceledException)
            {
                // The instance is gone or the test is over: closing the browser's connection is all there is to do.
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        _listener.Stop();
        await _accepting;
        _stopping.Dispose();
    }
}

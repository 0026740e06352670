namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>One sample server (Production environment) shared by a test class.</summary>
public sealed class SampleServerFixture : IAsyncLifetime
{
    private SampleServer? _server;

    public SampleServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync();

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}

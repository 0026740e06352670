using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>The sample server (which maps the explorer) with the explorer's form service, also under a prefix that needs a user.</summary>
public sealed class ExplorerServerFixture : IAsyncLifetime
{
    public const string SecureFile = "/secure-form/explorer_form.proto";

    private SampleServer? _server;

    public SampleServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(map: app =>
    {
        app.MapProtoService<FormEchoService>();
        app.MapProtoService<FormEchoService>(SecureFile).RequireAuthorization();
    });

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}

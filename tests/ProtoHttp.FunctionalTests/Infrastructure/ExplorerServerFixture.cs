using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The sample server (which maps the explorer) with the explorer's form service, also under a prefix that needs a
/// user, and a service whose .proto is not served.
/// </summary>
public sealed class ExplorerServerFixture : IAsyncLifetime
{
    public const string SecureFile = "/secure-form/explorer_form.proto";

    private SampleServer? _server;

    public SampleServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        configure: builder => builder.Services.AddProtoHttp().AddServiceOptions<NotEmbeddedService>(o => o.ServeProtoFile = false),
        map: app =>
        {
            app.MapProtoService<FormEchoService>();
            app.MapProtoService<FormEchoService>(SecureFile).RequireAuthorization();
            app.MapProtoService<NotEmbeddedService>();
        });

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}

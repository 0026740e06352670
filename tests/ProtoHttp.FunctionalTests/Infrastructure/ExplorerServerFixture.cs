using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The sample server (which maps the explorer) with the explorer's form service, also under a prefix that needs a
/// user, inside a route group, and a service whose .proto is not served.
/// </summary>
public sealed class ExplorerServerFixture : IAsyncLifetime
{
    public const string SecureFile = "/secure-form/explorer_form.proto";

    /// <summary>A route group the form service is mapped in once more.</summary>
    public const string GroupPrefix = "/v2";

    private SampleServer? _server;

    public SampleServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        configure: builder => builder.Services.AddProtoHttp().AddServiceOptions<NotEmbeddedService>(o => o.ServeProtoFile = false),
        map: app =>
        {
            app.MapProtoService<FormEchoService>();
            app.MapProtoService<FormEchoService>(SecureFile).RequireAuthorization();
            app.MapProtoService<NotEmbeddedService>();
            app.MapGroup(GroupPrefix).MapProtoService<FormEchoService>();
        });

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}

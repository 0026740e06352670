using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// The sample server with the echo services for messages the sample lacks: Any fields (also under a prefix whose
/// options add the sample's <c>SearchRequest</c> as an Any type), and Google's proto2 conformance messages.
/// </summary>
public sealed class EchoServerFixture : IAsyncLifetime
{
    public const string SampleTypesPrefix = "/sample-types/any_echo.proto";

    private SampleServer? _server;

    public SampleServer Server => _server ?? throw new InvalidOperationException("The server has not started.");

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(
        configure: builder => builder.Services.AddProtoHttp()
            .AddServiceOptions<AnyEchoWithSampleTypesService>(o => o.AnyTypes.Add(ProtoService.SearchRequest.Descriptor)),
        map: app =>
        {
            app.MapProtoService<AnyEchoService>();
            app.MapProtoService<AnyEchoWithSampleTypesService>(SampleTypesPrefix);
            app.MapProtoService<Proto2EchoService>();
        });

    public async Task DisposeAsync()
    {
        if (_server is not null)
        {
            await _server.DisposeAsync();
        }
    }
}

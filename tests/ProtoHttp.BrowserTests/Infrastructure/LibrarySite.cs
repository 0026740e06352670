using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>
/// The functional tests' Library (REST routes from google.api.http rules of every shape) with the explorer, on real
/// Kestrel at a free loopback port, with every log line kept: the sample has no REST routes.
/// </summary>
public sealed class LibrarySite : IAsyncLifetime
{
    private WebApplication? _app;

    public LogSink Logs { get; } = new();

    public Uri Url(string pathAndQuery) => new(new Uri(_app!.Urls.First()), pathAndQuery);

    public async Task InitializeAsync()
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
        builder.Logging.ClearProviders();
        builder.Logging.AddProvider(Logs);
        builder.Logging.AddFilter<LogSink>(category: null, LogLevel.Information);
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Services.AddProtoHttp();
        _app = builder.Build();
        _app.MapProtoService<LibraryService>();
        _app.MapProtoHttpExplorer();
        await _app.StartAsync();
    }

    public async Task DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.DisposeAsync();
        }
    }
}

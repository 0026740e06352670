using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Json;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.AnyEcho;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// A service instance keeps the lifetime the app gave it, and what it is made from too, whether ProtoHttp makes it
/// from the request's scope or, when nothing in it can be scoped, from the root provider (ServiceActivator): real
/// Kestrel, plain HTTP/1.1 JSON calls.
/// </summary>
public sealed class ServiceLifetimeTests
{
    private const string Echo = "/any_echo.proto/Echo";

    [Fact]
    public async Task AServiceRegisteredAsASingletonIsTheSameInstanceOnEveryCallAndNoCallDisposesIt()
    {
        await using var app = await LifetimeApp.StartAsync<DisposableEcho>(s => s.AddSingleton<DisposableEcho>());

        var first = await app.CallAsync();
        var second = await app.CallAsync();

        Assert.Equal(first, second);
        Assert.False(app.Journal.Has($"disposed {first}"));
    }

    [Fact]
    public async Task AServiceRegisteredAsScopedIsOnePerCallAndDisposedWithItsRequest()
    {
        await using var app = await LifetimeApp.StartAsync<DisposableEcho>(s => s.AddScoped<DisposableEcho>());

        var first = await app.CallAsync();
        var second = await app.CallAsync();

        Assert.NotEqual(first, second);
        await app.Journal.WaitForAsync($"disposed {first}");
        await app.Journal.WaitForAsync($"disposed {second}");
    }

    [Fact]
    public async Task AnUnregisteredServiceTakingOnlySingletonsIsMadeForEachCallAndDisposedAfterIt()
    {
        await using var app = await LifetimeApp.StartAsync<DisposableEcho>();

        var first = await app.CallAsync();
        var second = await app.CallAsync();

        Assert.NotEqual(first, second);
        await app.Journal.WaitForAsync($"disposed {first}");
        await app.Journal.WaitForAsync($"disposed {second}");
    }

    [Fact]
    public async Task AnUnregisteredServiceTakingAScopedServiceGetsTheRequestsInstance()
    {
        await using var app = await LifetimeApp.StartAsync<ScopedDependencyEcho>(s => s.AddScoped<PerRequest>());

        Assert.Equal("the request's", await app.CallAsync());
    }

    [Fact]
    public async Task AnUnregisteredServiceTakingATransientDisposableHasItDisposedWithTheRequest()
    {
        // Made from the root provider, the transient would be kept by the root until the app stops.
        await using var app = await LifetimeApp.StartAsync<TransientDependencyEcho>(s => s.AddTransient<DisposableDependency>());

        var dependency = await app.CallAsync();

        await app.Journal.WaitForAsync($"disposed {dependency}");
    }

    [Fact]
    public async Task AnUnregisteredServiceTakingTheServiceProviderGetsTheRequestsScope()
    {
        await using var app = await LifetimeApp.StartAsync<ProviderEcho>();

        Assert.Equal("the request's", await app.CallAsync());
    }

    /// <summary>What the test's services did, each line once; waited for, never slept on.</summary>
    public sealed class Journal
    {
        private readonly ConcurrentDictionary<string, TaskCompletionSource> _lines = new();
        private int _lastId;

        public string NextId() => Interlocked.Increment(ref _lastId).ToString(System.Globalization.CultureInfo.InvariantCulture);

        public void Add(string line) => Line(line).TrySetResult();

        public bool Has(string line) => _lines.TryGetValue(line, out var seen) && seen.Task.IsCompleted;

        // The timeout only guards against a hang: a line that never comes fails the test.
        public Task WaitForAsync(string line) => Line(line).Task.WaitAsync(TimeSpan.FromSeconds(30));

        private TaskCompletionSource Line(string line) =>
            _lines.GetOrAdd(line, _ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously));
    }

    /// <summary>Answers its own id, and notes when it is disposed.</summary>
    public sealed class DisposableEcho(Journal journal) : AnyEcho.AnyEchoBase, IDisposable
    {
        private readonly string _id = journal.NextId();

        public override Task<Parcel> Echo(Parcel request, ServerCallContext context) => Task.FromResult(new Parcel { Label = _id });

        public void Dispose() => journal.Add($"disposed {_id}");
    }

    public sealed class PerRequest;

    /// <summary>Answers whether the scoped service it was made with is the request's.</summary>
    public sealed class ScopedDependencyEcho(PerRequest dependency) : AnyEcho.AnyEchoBase
    {
        public override Task<Parcel> Echo(Parcel request, ServerCallContext context)
        {
            var requests = context.GetProtoHttpContext()!.RequestServices.GetRequiredService<PerRequest>();
            return Task.FromResult(new Parcel { Label = ReferenceEquals(dependency, requests) ? "the request's" : "another" });
        }
    }

    public sealed class DisposableDependency(Journal journal) : IDisposable
    {
        public string Id { get; } = journal.NextId();

        public void Dispose() => journal.Add($"disposed {Id}");
    }

    /// <summary>Answers the id of the transient it was made with.</summary>
    public sealed class TransientDependencyEcho(DisposableDependency dependency) : AnyEcho.AnyEchoBase
    {
        public override Task<Parcel> Echo(Parcel request, ServerCallContext context) => Task.FromResult(new Parcel { Label = dependency.Id });
    }

    /// <summary>Answers whether the provider it was made with is the request's.</summary>
    public sealed class ProviderEcho(IServiceProvider services) : AnyEcho.AnyEchoBase
    {
        public override Task<Parcel> Echo(Parcel request, ServerCallContext context) => Task.FromResult(new Parcel
        {
            Label = ReferenceEquals(services, context.GetProtoHttpContext()!.RequestServices) ? "the request's" : "another",
        });
    }

    private sealed class LifetimeApp(WebApplication app, HttpClient client) : IAsyncDisposable
    {
        public Journal Journal { get; } = app.Services.GetRequiredService<Journal>();

        public static async Task<LifetimeApp> StartAsync<TService>(Action<IServiceCollection>? services = null)
            where TService : AnyEcho.AnyEchoBase
        {
            var port = LoopbackPort.Free();
            var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Production" });
            builder.Logging.ClearProviders();
            builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
            builder.Services.AddProtoHttp();
            builder.Services.AddSingleton<Journal>();
            services?.Invoke(builder.Services);
            var app = builder.Build();
            app.MapProtoService<TService>();
            await app.StartAsync();
            return new LifetimeApp(app, new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}") });
        }

        /// <summary>One unary JSON call; the label the service answered.</summary>
        public async Task<string> CallAsync()
        {
            using var response = await client.PostAsync(Echo, new StringContent("{}", System.Text.Encoding.UTF8, "application/json"));
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            var answer = await response.Content.ReadFromJsonAsync<System.Text.Json.JsonElement>();
            return answer.GetProperty("label").GetString()!;
        }

        public async ValueTask DisposeAsync()
        {
            client.Dispose();
            await app.StopAsync();
            await app.DisposeAsync();
        }
    }
}

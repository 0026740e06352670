using System.Collections.Concurrent;
using Google.Protobuf.Reflection;
using Microsoft.Extensions.Options;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// One <see cref="InvokerSettings"/> per named client, so the transient clients dependency injection creates share
/// their per-method data instead of computing it on every client's first calls.
/// </summary>
internal sealed class InvokerSettingsCache(IOptionsMonitor<ProtoHttpClientOptions> options)
{
    private readonly ConcurrentDictionary<string, InvokerSettings> _settings = new(StringComparer.Ordinal);

    public InvokerSettings Get(string name, HttpClient httpClient, ServiceDescriptor? service) =>
        _settings.GetOrAdd(name, static (name, state) => new InvokerSettings(state.options.Get(name), state.httpClient.BaseAddress, state.service), (options, httpClient, service));
}

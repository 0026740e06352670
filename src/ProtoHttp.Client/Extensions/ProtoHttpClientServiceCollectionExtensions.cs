using System.Diagnostics.CodeAnalysis;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection.Extensions;
using ProtoHttp.Client;
using ProtoHttp.Client.Internal;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers Grpc.Tools-generated clients that call ProtoHttp servers, the way <c>AddGrpcClient</c> registers gRPC ones.</summary>
public static class ProtoHttpClientServiceCollectionExtensions
{
    /// <summary>
    /// Registers <typeparamref name="TClient"/> as a transient service that calls a ProtoHttp server through a named
    /// <see cref="HttpClient"/> from <c>IHttpClientFactory</c>, named after the client type.
    /// </summary>
    /// <typeparam name="TClient">A Grpc.Tools-generated client, e.g. <c>SearchService.SearchServiceClient</c>.</typeparam>
    /// <param name="services">The application's services.</param>
    /// <param name="configure">Sets the address and format, e.g. <c>o =&gt; o.Address = new Uri("http://localhost:5080")</c>.</param>
    /// <returns>The HttpClient's builder: add handlers, resilience and lifetimes to it.</returns>
    public static IHttpClientBuilder AddProtoHttpClient<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TClient>(
        this IServiceCollection services, Action<ProtoHttpClientOptions> configure)
        where TClient : ClientBase =>
        services.AddProtoHttpClient<TClient>(typeof(TClient).Name, configure);

    /// <summary>
    /// Registers <typeparamref name="TClient"/> as a transient service that calls a ProtoHttp server through the
    /// <see cref="HttpClient"/> named <paramref name="name"/> from <c>IHttpClientFactory</c>.
    /// </summary>
    /// <typeparam name="TClient">A Grpc.Tools-generated client, e.g. <c>SearchService.SearchServiceClient</c>.</typeparam>
    /// <param name="services">The application's services.</param>
    /// <param name="name">The name of the HttpClient and of the options.</param>
    /// <param name="configure">Sets the address and format, e.g. <c>o =&gt; o.Address = new Uri("http://localhost:5080")</c>.</param>
    /// <returns>The HttpClient's builder: add handlers, resilience and lifetimes to it.</returns>
    public static IHttpClientBuilder AddProtoHttpClient<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TClient>(
        this IServiceCollection services, string name, Action<ProtoHttpClientOptions> configure)
        where TClient : ClientBase
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(name);
        ArgumentNullException.ThrowIfNull(configure);

        services.Configure(name, configure);
        services.TryAddSingleton<InvokerSettingsCache>();
        return services.AddHttpClient(name)
            // As with gRPC, a call without a deadline may take as long as it takes; CallOptions.Deadline bounds calls.
            // A ConfigureHttpClient after this one can still set a Timeout.
            .ConfigureHttpClient(static httpClient => httpClient.Timeout = Timeout.InfiniteTimeSpan)
            .AddTypedClient((httpClient, provider) =>
            {
                var settings = provider.GetRequiredService<InvokerSettingsCache>().Get(name, httpClient, ClientActivator<TClient>.Service);
                return ClientActivator<TClient>.Create(provider, new ProtoHttpCallInvoker(httpClient, settings));
            });
    }
}

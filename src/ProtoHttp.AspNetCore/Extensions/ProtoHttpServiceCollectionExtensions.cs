using System.Diagnostics.CodeAnalysis;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection.Extensions;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Explorer;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;
using ProtoHttp.AspNetCore.Topics;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Connect;
using ProtoHttp.AspNetCore.Protocols.GrpcWeb;
using ProtoHttp.AspNetCore.Protocols.Native;
using ProtoHttp.AspNetCore.Protocols.Rest;
using ProtoHttp.AspNetCore.Protocols.WebSockets;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers ProtoHttp with the application's services.</summary>
public static class ProtoHttpServiceCollectionExtensions
{
    /// <summary>Adds what <c>MapProtoService&lt;TService&gt;()</c> needs.</summary>
    /// <param name="services">The application's services.</param>
    /// <param name="configure">Sets the options of every service.</param>
    /// <returns>A builder to configure individual services.</returns>
    public static IProtoHttpServerBuilder AddProtoHttp(this IServiceCollection services, Action<ProtoHttpOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        // The core only, as grpc-dotnet's AddGrpc: the full AddRouting also registers the regex route constraint,
        // which keeps System.Text.RegularExpressions' parser and interpreter in a trimmed or Native AOT app that
        // never asks for it (about 230 KB of code). An app whose own routes use regex constraints calls AddRouting().
        services.AddRoutingCore();
        services.AddOptions();
        if (!services.Any(d => d.ServiceType == typeof(ProtoHttpMarkerService)))
        {
            DecorateAuthorizationResultHandler(services);
        }

        services.TryAddSingleton<ProtoHttpMarkerService>();
        // The collection itself, read when a service is mapped: whether its instance needs the request's scope.
        services.TryAddSingleton(new ServiceLifetimes(services));
        services.TryAddSingleton<ConnectPathClaims>();
        services.TryAddSingleton<ProtoServiceRouteBuilder>();
        // The protocols every service answers, in the order they map their endpoints (docs/architecture.md).
        services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, NativeProtocol>(_ => NativeProtocol.Instance));
        services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, ConnectProtocol>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, GrpcWebProtocol>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, WebSocketProtocol>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<CallProtocol, RestProtocol>());
        services.TryAddSingleton<ExplorerPages>();
        // The one dispatcher among the protocols sharing a path, by the requests each claims (docs/architecture.md).
        services.TryAddEnumerable(ServiceDescriptor.Singleton<MatcherPolicy, RequestClaimMatcherPolicy>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<MatcherPolicy, RequestGateRoutePolicy>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<ForeignEndpointClaim, GrpcDotnetWebClaim>());
        services.TryAddEnumerable(ServiceDescriptor.Singleton<MatcherPolicy, RouteFallbackPolicy>());
        // Topics live in this process until an engine package (AddRedisBackplane, AddNatsBackplane) replaces it.
        services.TryAddSingleton<ITopicEngine, InMemoryTopicEngine>();
        services.TryAddSingleton<EngineHealth>();
        services.TryAddSingleton<IProtoTopics, ProtoTopics>();
        if (configure is not null)
        {
            // Every service's named options start from these, before its own AddServiceOptions. Interceptors added
            // here are marked global, so they run before the service's own even if AddServiceOptions came first.
            services.ConfigureAll<ProtoHttpOptions>(options =>
            {
                options.Interceptors.AddingGlobal = true;
                try
                {
                    configure(options);
                }
                finally
                {
                    options.Interceptors.AddingGlobal = false;
                }
            });
        }

        return new ProtoHttpServerBuilder(services);
    }

    /// <summary>Sets how topics deliver, wait and remember (docs/protocol.md, "Topics: streams that resume").</summary>
    /// <param name="builder">The builder <c>AddProtoHttp()</c> returned.</param>
    /// <param name="configure">Sets the options.</param>
    /// <returns>The builder.</returns>
    public static IProtoHttpServerBuilder AddTopics(this IProtoHttpServerBuilder builder, Action<ProtoTopicOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(configure);
        builder.Services.Configure(configure);
        return builder;
    }

    /// <summary>
    /// Keeps every topic's log in <typeparamref name="TEngine"/> instead of this process's memory: the one step an
    /// engine package's own <c>Add…Backplane</c> takes after reading its options (docs/protocol.md, "Topics: streams
    /// that resume"). The last engine added wins.
    /// </summary>
    /// <typeparam name="TEngine">The engine, a singleton resolved from DI.</typeparam>
    /// <param name="builder">The builder <c>AddProtoHttp()</c> returned.</param>
    /// <returns>The builder.</returns>
    public static IProtoHttpServerBuilder AddTopicEngine<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TEngine>(this IProtoHttpServerBuilder builder)
        where TEngine : class, ITopicEngine
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.Replace(ServiceDescriptor.Singleton<ITopicEngine, TEngine>());
        return builder;
    }

    /// <summary>Sets options for one service, on top of those set for every service.</summary>
    /// <typeparam name="TService">The service class, as passed to <c>MapProtoService&lt;TService&gt;()</c>.</typeparam>
    /// <param name="builder">The builder <c>AddProtoHttp()</c> returned.</param>
    /// <param name="configure">Sets the service's options.</param>
    /// <returns>The same builder.</returns>
    public static IProtoHttpServerBuilder AddServiceOptions<TService>(this IProtoHttpServerBuilder builder, Action<ProtoHttpOptions> configure)
        where TService : class
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(configure);
        builder.Services.Configure(ServiceOptionsName.For<TService>(), configure);
        return builder;
    }

    /// <summary>
    /// Wraps the authorization result handler registered so far (ASP.NET Core's default when there is none yet, as
    /// <c>AddAuthorization()</c> only adds its own when none is registered) in ProtoHttp's, which gives the refusals on
    /// ProtoHttp's endpoints their ErrorResult. A handler the app registers after <c>AddProtoHttp()</c> replaces both.
    /// </summary>
    private static void DecorateAuthorizationResultHandler(IServiceCollection services)
    {
        var existing = services.LastOrDefault(d => d.ServiceType == typeof(IAuthorizationMiddlewareResultHandler) && !d.IsKeyedService);
        if (existing is not null)
        {
            services.Remove(existing);
        }

        Func<IServiceProvider, IAuthorizationMiddlewareResultHandler> inner = existing switch
        {
            { ImplementationInstance: IAuthorizationMiddlewareResultHandler instance } => _ => instance,
            { ImplementationFactory: { } factory } => provider => (IAuthorizationMiddlewareResultHandler)factory(provider),
            { ImplementationType: { } type } => provider => (IAuthorizationMiddlewareResultHandler)ActivatorUtilities.CreateInstance(provider, type),
            _ => _ => new AuthorizationMiddlewareResultHandler(),
        };
        services.Add(ServiceDescriptor.Describe(
            typeof(IAuthorizationMiddlewareResultHandler),
            provider => new ProtoHttpAuthorizationResultHandler(inner(provider)),
            existing?.Lifetime ?? ServiceLifetime.Singleton));
    }
}

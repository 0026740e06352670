using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.Tests.Hosting;

/// <summary>How <c>AddProtoHttp()</c> decorates the authorization result handler, and when the decorator writes nothing.</summary>
public sealed class AuthorizationResultHandlerTests
{
    private static readonly AuthorizationPolicy AnyUser = new AuthorizationPolicyBuilder().RequireAuthenticatedUser().Build();

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void TheHandlerIsDecoratedWhicheverOfAddAuthorizationAndAddProtoHttpComesFirst(bool authorizationFirst)
    {
        var services = new ServiceCollection();
        if (authorizationFirst)
        {
            services.AddAuthorization();
        }

        services.AddProtoHttp();
        services.AddAuthorization();

        Assert.IsType<ProtoHttpAuthorizationResultHandler>(Resolve(services));
        Assert.Single(services, d => d.ServiceType == typeof(IAuthorizationMiddlewareResultHandler));
    }

    [Fact]
    public async Task AHandlerTheAppRegisteredBeforeIsDecoratedWithItsLifetime()
    {
        var services = new ServiceCollection();
        services.AddScoped<IAuthorizationMiddlewareResultHandler, RecordingHandler>();
        services.AddProtoHttp();
        services.AddProtoHttp();

        var registration = Assert.Single(services, d => d.ServiceType == typeof(IAuthorizationMiddlewareResultHandler));
        Assert.Equal(ServiceLifetime.Scoped, registration.Lifetime);
        var context = new DefaultHttpContext();
        await Resolve(services).HandleAsync(_ => Task.CompletedTask, context, AnyUser, PolicyAuthorizationResult.Success());
        Assert.True(context.Items.ContainsKey(nameof(RecordingHandler)));
    }

    [Theory]
    [InlineData(StatusCodes.Status302Found)] // A cookie scheme's challenge: a redirect to its login page.
    [InlineData(StatusCodes.Status401Unauthorized)]
    public async Task NoBodyIsWrittenOutsideProtoHttpOrForARedirect(int status)
    {
        var handler = new ProtoHttpAuthorizationResultHandler(new StatusHandler(status));
        var protoHttp = Context(new EndpointErrorWriter("M", NullLogger.Instance, new MessageCodecs(FormatOptions.Default), NativeProtocol.Instance, errorType: null));
        var other = Context(writer: null);

        await handler.HandleAsync(_ => Task.CompletedTask, protoHttp, AnyUser, PolicyAuthorizationResult.Challenge());
        await handler.HandleAsync(_ => Task.CompletedTask, other, AnyUser, PolicyAuthorizationResult.Challenge());

        Assert.Equal(status == StatusCodes.Status401Unauthorized, protoHttp.Response.Body.Length > 0);
        Assert.Equal(0, other.Response.Body.Length);
        Assert.Equal(status, protoHttp.Response.StatusCode);
    }

    private static IAuthorizationMiddlewareResultHandler Resolve(ServiceCollection services) =>
        services.AddLogging().BuildServiceProvider().CreateScope().ServiceProvider.GetRequiredService<IAuthorizationMiddlewareResultHandler>();

    private static DefaultHttpContext Context(EndpointErrorWriter? writer)
    {
        var context = new DefaultHttpContext { Response = { Body = new MemoryStream() } };
        context.SetEndpoint(new Endpoint(_ => Task.CompletedTask, writer is null ? new EndpointMetadataCollection() : new EndpointMetadataCollection(writer), "test"));
        return context;
    }

    private sealed class RecordingHandler : IAuthorizationMiddlewareResultHandler
    {
        public Task HandleAsync(RequestDelegate next, HttpContext context, AuthorizationPolicy policy, PolicyAuthorizationResult authorizeResult)
        {
            context.Items[nameof(RecordingHandler)] = true;
            return Task.CompletedTask;
        }
    }

    /// <summary>A scheme's challenge, reduced to the status it sets.</summary>
    private sealed class StatusHandler(int status) : IAuthorizationMiddlewareResultHandler
    {
        public Task HandleAsync(RequestDelegate next, HttpContext context, AuthorizationPolicy policy, PolicyAuthorizationResult authorizeResult)
        {
            context.Response.StatusCode = status;
            return Task.CompletedTask;
        }
    }
}

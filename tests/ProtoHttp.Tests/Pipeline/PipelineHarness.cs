using System.Text;
using Google.Protobuf;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Invocation;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.AspNetCore.Protocols.Connect;
using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>
/// <see cref="PipelineTestService"/> bound by ProtoHttp's own binder, with its own services, settings and log, so a test
/// can give a route of any protocol to a method's real handler and call it on a <see cref="DefaultHttpContext"/>.
/// </summary>
public sealed class PipelineHarness
{
    public PipelineHarness(bool detailedErrors = false)
    {
        Services = new ServiceCollection().AddSingleton(Behavior).BuildServiceProvider();
        Settings = new ServiceCallSettings<PipelineTestService>(
            new ProtoHttpOptions(), detailedErrors, restrictGet: false, new MessageCodecs(FormatOptions.Default), inPlaceBodyLimit: 64 * 1024,
            Log, new ServiceActivator<PipelineTestService>(Services, static () => ActivatorUtilities.CreateFactory<PipelineTestService>([]), typeof(PipelineTestService).GetConstructors()), []);
        var binder = new ProtoHttpServiceBinder<PipelineTestService>(ServiceModel.For(typeof(PipelineTestService)), Settings);
        PipelineService.BindService(binder, null);
        Methods = binder.Methods;
    }

    public PipelineBehavior Behavior { get; } = new();

    public RecordingLogger Log { get; } = new();

    public IServiceProvider Services { get; }

    internal ServiceCallSettings<PipelineTestService> Settings { get; }

    internal IReadOnlyList<BoundMethod> Methods { get; }

    /// <summary>
    /// A route of <paramref name="method"/> in <paramref name="protocol"/>, as the protocol would map it (Connect's a
    /// <see cref="ConnectRoute"/>, any other a <see cref="NativeRoute"/> with no suffix, which the test protocols that
    /// lend ProtoHttp's own protocol's parts need); <paramref name="adjust"/> changes it.
    /// </summary>
    internal CallRoute Route(string method, CallProtocol protocol, Func<CallRoute, CallRoute>? adjust = null)
    {
        var bound = Methods.Single(m => m.Name == method);
        CallRoute route = protocol is ConnectProtocol
            ? new ConnectRoute
            {
                Protocol = protocol, Method = bound.Method, Descriptor = bound.Descriptor, Settings = Settings, ProtoSource = new(() => null),
                Pattern = "/pipeline/" + method, AllowsGet = !bound.Descriptor.IsClientStreaming, ResponseTypes = ConnectMediaTypes.Responses(Settings.Codecs),
            }
            : new NativeRoute
            {
                Protocol = protocol, Method = bound.Method, Descriptor = bound.Descriptor, Settings = Settings, ProtoSource = new(() => null),
                Pattern = "/pipeline/" + method, AllowsGet = !bound.Descriptor.IsClientStreaming,
            };
        return adjust is null ? route : adjust(route);
    }

    /// <summary>The handler the method's kind makes for <paramref name="route"/>.</summary>
    internal RequestDelegate Handler(CallRoute route) => Methods.Single(m => m.Method == route.Method).Handler(route);

    /// <summary>A request on a fresh context whose response body can be read back.</summary>
    public DefaultHttpContext Request(string verb, string? contentType = null, byte[]? body = null, string query = "", string protocol = "HTTP/1.1")
    {
        var context = new DefaultHttpContext { RequestServices = Services };
        var request = context.Request;
        request.Method = verb;
        request.Protocol = protocol;
        request.Path = "/pipeline";
        request.QueryString = new QueryString(query);
        if (contentType is not null)
        {
            request.ContentType = contentType;
        }

        if (body is not null)
        {
            request.Body = new MemoryStream(body);
            request.ContentLength = body.Length;
        }

        context.Response.Body = new MemoryStream();
        return context;
    }

    /// <summary>A JSON body of <paramref name="message"/>.</summary>
    public static byte[] Json(IMessage message) => Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(message));

    /// <summary>Envelopes of <paramref name="messages"/> in JSON, flags 0x00.</summary>
    public static byte[] JsonEnvelopes(params IMessage[] messages)
    {
        var body = new MemoryStream();
        foreach (var message in messages)
        {
            var payload = Json(message);
            body.WriteByte(0);
            body.Write([(byte)(payload.Length >> 24), (byte)(payload.Length >> 16), (byte)(payload.Length >> 8), (byte)payload.Length]);
            body.Write(payload);
        }

        return body.ToArray();
    }

    /// <summary>The response body as text.</summary>
    public static string Body(HttpContext context) => Encoding.UTF8.GetString(((MemoryStream)context.Response.Body).ToArray());
}

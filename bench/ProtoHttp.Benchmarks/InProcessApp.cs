using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using ProtoHttp.AspNetCore;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// An application built but never started: its endpoints' request delegates are called directly on an
/// <see cref="InMemoryCall"/>, so a benchmark measures the endpoint and nothing of the server or routing.
/// </summary>
internal static class InProcessApp
{
    public static WebApplication Build(Action<IServiceCollection> services, Action<WebApplication> map)
    {
        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions { ContentRootPath = AppContext.BaseDirectory });
        // A server is needed to build the application, never started: requests go straight to the endpoints.
        builder.WebHost.UseKestrelCore();
        builder.Services.AddRouting();
        builder.Services.AddLogging();
        services(builder.Services);
        var app = builder.Build();
        map(app);
        return app;
    }

    /// <summary>
    /// The request delegate of the one endpoint mapped at <paramref name="pattern"/> that is not another protocol's:
    /// ProtoHttp's own where WebSocket calls share its path, or a peer's endpoint. Where protocols share a procedure path
    /// (Connect and gRPC-Web both map <c>/{package.Service}/{Method}</c>), <see cref="ProtocolEndpoint"/> picks one.
    /// </summary>
    public static RequestDelegate Endpoint(WebApplication app, string pattern) =>
        Endpoint(app, pattern, static metadata => metadata.GetMetadata<ProtoHttpMethodMetadata>() is null or { Protocol: ProtocolNames.ProtoHttp });

    /// <summary>The endpoint at <paramref name="pattern"/> of the protocol named <paramref name="protocol"/> (<see cref="ProtocolNames"/>).</summary>
    public static RequestDelegate ProtocolEndpoint(WebApplication app, string pattern, string protocol) =>
        Endpoint(app, pattern, metadata => metadata.GetMetadata<ProtoHttpMethodMetadata>()?.Protocol == protocol);

    /// <summary>The endpoint at <paramref name="pattern"/> that answers <paramref name="httpMethod"/> (a Minimal API peer's).</summary>
    public static RequestDelegate Endpoint(WebApplication app, string pattern, string httpMethod) =>
        Endpoint(app, pattern, metadata => metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods.Contains(httpMethod) == true);

    /// <summary>
    /// The whole endpoint at <paramref name="pattern"/> that answers <paramref name="httpMethod"/>, for a call that needs
    /// it set on the request as routing sets it (REST routes and transcoding read their rule's binding from it).
    /// </summary>
    public static RouteEndpoint RouteEndpoint(WebApplication app, string pattern, string httpMethod) =>
        Find(app, pattern, metadata => metadata.GetMetadata<IHttpMethodMetadata>()?.HttpMethods.Contains(httpMethod) == true);

    private static RequestDelegate Endpoint(WebApplication app, string pattern, Func<EndpointMetadataCollection, bool> matches) =>
        Find(app, pattern, matches).RequestDelegate!;

    private static RouteEndpoint Find(WebApplication app, string pattern, Func<EndpointMetadataCollection, bool> matches) =>
        ((IEndpointRouteBuilder)app).DataSources.SelectMany(d => d.Endpoints).OfType<RouteEndpoint>()
            .Single(e => e.RoutePattern.RawText == pattern && matches(e.Metadata));
}

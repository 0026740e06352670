using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Patterns;
using ProtoHttp.AspNetCore.Explorer;

namespace ProtoHttp.Tests.Explorer;

public class ExplorerLinksTests
{
    [Theory]
    [InlineData("", "/protohttp", "/protohttp", "/protohttp/explorer.js", "/Orders.proto/Get")]
    [InlineData("/app", "/protohttp", "/app/protohttp", "/app/protohttp/explorer.js", "/app/Orders.proto/Get")]
    [InlineData("/app", "/tools/explorer/", "/app/tools/explorer", "/app/tools/explorer/explorer.js", "/app/Orders.proto/Get")]
    [InlineData("", "/", "/", "/explorer.js", "/Orders.proto/Get")]
    public void LinksCarryThePathBaseAndTheIndexRouteAsMapped(string pathBase, string indexRoute, string index, string script, string method)
    {
        var context = new DefaultHttpContext();
        context.Request.PathBase = pathBase;
        var indexEndpoint = new RouteEndpoint(_ => Task.CompletedTask, RoutePatternFactory.Parse(indexRoute), 0, new EndpointMetadataCollection(new ExplorerPages()), "index");
        var other = new RouteEndpoint(_ => Task.CompletedTask, RoutePatternFactory.Parse("/other"), 0, EndpointMetadataCollection.Empty, "other");

        var links = ExplorerLinks.For(context, new DefaultEndpointDataSource(other, indexEndpoint));

        Assert.Equal((index, script, method), (links.Index, links.Asset("explorer.js"), links.To("/Orders.proto/Get")));
    }

    [Theory]
    [InlineData("", "/_protohttp/protohttp.mjs", "/_protohttp/protohttp.mjs")]
    [InlineData("/app", "/v2/_protohttp/protohttp.mjs", "/app/v2/_protohttp/protohttp.mjs")]
    [InlineData("/app", null, null)]
    public void TheBrowserModuleIsLinkedWhereItIsMappedWithThePathBase(string pathBase, string? moduleRoute, string? module)
    {
        var context = new DefaultHttpContext();
        context.Request.PathBase = pathBase;
        var indexEndpoint = new RouteEndpoint(_ => Task.CompletedTask, RoutePatternFactory.Parse("/protohttp"), 0, new EndpointMetadataCollection(new ExplorerPages()), "index");
        Endpoint[] endpoints = moduleRoute is null
            ? [indexEndpoint]
            : [indexEndpoint, new RouteEndpoint(_ => Task.CompletedTask, RoutePatternFactory.Parse(moduleRoute), 0, new EndpointMetadataCollection(BrowserModuleMetadata.Instance), "module")];

        var links = ExplorerLinks.For(context, new DefaultEndpointDataSource(endpoints));

        Assert.Equal(module, links.Module);
    }
}

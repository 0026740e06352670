using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoService;
using SearchService.Catalog;
using SearchService.Services;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>The generated clients call the real sample server and get exactly what it sent, in every format.</summary>
public sealed class CallTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    [Theory]
    [EveryFormat]
    public async Task SearchReturnsWhatTheServiceAnswered(string format)
    {
        using var clients = new ClientFactory(server.Address, format);
        var request = new SearchRequest { Query = "chai", ResultPerPage = 5 };

        var response = await clients.Search.SearchAsync(request);

        var expected = await new CatalogSearchService(server.Services.GetRequiredService<ProductCatalog>()).Search(request, null!);
        Assert.NotEmpty(response.Result);
        Assert.Equal(expected, response);
    }

    [Theory]
    [EveryFormat]
    public async Task GetOrdersReturnsAll830OrdersAnd2155Lines(string format)
    {
        using var clients = new ClientFactory(server.Address, format);

        var response = await clients.Northwind.GetOrdersAsync(new OrdersRequest());

        Assert.Equal(830, response.Orders.Count);
        Assert.Equal(2155, response.Orders.Sum(o => o.Lines.Count));
        Assert.Equal(server.Services.GetRequiredService<NorthwindOrders>().All, response);
    }

    [Theory]
    [EveryFormat]
    public async Task RoundtripSendsTheOrdersAndGetsThemBack(string format)
    {
        using var clients = new ClientFactory(server.Address, format);
        var orders = server.Services.GetRequiredService<NorthwindOrders>().All;

        var response = await clients.Northwind.RoundtripAsync(orders);

        Assert.Equal(orders, response);
    }

    [Fact]
    public void BlockingCallsWork()
    {
        using var clients = new ClientFactory(server.Address);

        var response = clients.Search.Search(new SearchRequest { Query = "chai" });

        Assert.NotEmpty(response.Result);
    }

    [Fact]
    public async Task HundredConcurrentCallsThroughOneClientAllSucceed()
    {
        using var clients = new ClientFactory(server.Address);
        var client = clients.Search;
        var expected = await client.SearchAsync(new SearchRequest { Query = "sauce" });

        var responses = await Task.WhenAll(Enumerable.Range(0, 100).Select(_ => client.SearchAsync(new SearchRequest { Query = "sauce" }).ResponseAsync));

        Assert.All(responses, response => Assert.Equal(expected, response));
    }

    [Fact]
    public async Task AddProtoHttpClientResolvesAWorkingClient()
    {
        var services = new ServiceCollection();
        services.AddProtoHttpClient<ProtoService.SearchService.SearchServiceClient>(o => o.Address = server.Address);
        await using var provider = services.BuildServiceProvider();

        var response = await provider.GetRequiredService<ProtoService.SearchService.SearchServiceClient>().SearchAsync(new SearchRequest { Query = "chai" });

        Assert.NotEmpty(response.Result);
    }
}

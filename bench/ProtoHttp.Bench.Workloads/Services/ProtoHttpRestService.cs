using Grpc.Core;
using Northwind;
using ProtoHttp.Bench.Workloads.Rest;
using ProtoService;
using SearchService.Catalog;
using SearchService.Services;

namespace ProtoHttp.Bench.Workloads.Services;

/// <summary>W8's rules as ProtoHttp serves them: the sample's own Search and GetOrders behind the REST routes.</summary>
public sealed class ProtoHttpRestService(ProductCatalog catalog, NorthwindOrders orders) : ProtoHttpRest.ProtoHttpRestBase
{
    private readonly CatalogSearchService _search = new(catalog);
    private readonly NorthwindOrdersService _orders = new(orders);

    public override Task<SearchResponse> Search(SearchRequest request, ServerCallContext context) => _search.Search(request, context);

    public override Task<OrderList> GetOrders(OrdersRequest request, ServerCallContext context) => _orders.GetOrders(request, context);
}

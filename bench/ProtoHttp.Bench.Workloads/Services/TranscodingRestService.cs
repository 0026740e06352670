using Grpc.Core;
using Northwind;
using ProtoHttp.Bench.Workloads.Rest;
using ProtoService;
using SearchService.Catalog;

namespace ProtoHttp.Bench.Workloads.Services;

/// <summary>W8's rules as gRPC JSON transcoding serves them: the very calls <see cref="ProtoHttpRestService"/> makes.</summary>
public sealed class TranscodingRestService(ProductCatalog catalog, NorthwindOrders orders) : TranscodingRest.TranscodingRestBase
{
    private readonly ProtoHttpRestService _same = new(catalog, orders);

    public override Task<SearchResponse> Search(SearchRequest request, ServerCallContext context) => _same.Search(request, context);

    public override Task<OrderList> GetOrders(OrdersRequest request, ServerCallContext context) => _same.GetOrders(request, context);
}

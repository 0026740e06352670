using Grpc.Core;
using Northwind;
using SearchService.Catalog;

namespace SearchService.Services;

/// <summary>NorthwindService from Northwind.proto: the W1 workload of the benchmarks.</summary>
public sealed class NorthwindOrdersService(NorthwindOrders orders) : NorthwindService.NorthwindServiceBase
{
    public override Task<OrderList> GetOrders(OrdersRequest request, ServerCallContext context) =>
        Task.FromResult(orders.All);

    public override Task<OrderList> Roundtrip(OrderList request, ServerCallContext context) =>
        Task.FromResult(request);
}

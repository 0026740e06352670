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

    public override Task<OrderList> FindOrders(OrderQuery request, ServerCallContext context)
    {
        if (request.Limit < 0)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, "limit cannot be negative."));
        }

        var customers = request.CustomerIds.ToHashSet(StringComparer.OrdinalIgnoreCase);
        var found = orders.All.Orders.Where(order =>
            (customers.Count == 0 || customers.Contains(order.CustomerId))
            && (request.Ordered?.From is not { } from || order.OrderDate >= from)
            && (request.Ordered?.Until is not { } until || order.OrderDate < until));
        var list = new OrderList();
        list.Orders.AddRange(request.Limit > 0 ? found.Take(request.Limit) : found);
        return Task.FromResult(list);
    }
}

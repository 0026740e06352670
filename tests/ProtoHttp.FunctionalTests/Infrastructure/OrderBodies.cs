using Google.Protobuf;
using Northwind;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>Northwind order lists built to a chosen protobuf size, for bodies around the server's size limits.</summary>
internal static class OrderBodies
{
    /// <summary>Identical 1 KB orders, as many as fit under <paramref name="bytes"/> bytes.</summary>
    public static OrderList OfSize(int bytes)
    {
        var list = new OrderList();
        var order = new Order { OrderId = 1, ShipName = new string('n', 1000) };
        while (list.CalculateSize() + order.CalculateSize() + 3 < bytes)
        {
            list.Orders.Add(order.Clone());
        }

        return list;
    }
}

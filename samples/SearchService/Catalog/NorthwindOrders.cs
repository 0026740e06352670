using System.Globalization;
using Google.Protobuf.WellKnownTypes;
using Northwind;

namespace SearchService.Catalog;

/// <summary>The 830 Northwind orders with their 2,155 lines, read once from the CSVs.</summary>
public sealed class NorthwindOrders
{
    private NorthwindOrders(OrderList all) => All = all;

    /// <summary>Every order; shared by all calls, so never modified after loading.</summary>
    public OrderList All { get; }

    public static NorthwindOrders Load(string dataFolder)
    {
        var orders = new OrderList();
        var byId = new Dictionary<int, Order>();
        foreach (var row in CsvFile.Read(Path.Combine(dataFolder, "orders.csv")))
        {
            var order = new Order
            {
                OrderId = Int(row["order_id"]),
                CustomerId = row["customer_id"],
                EmployeeId = Int(row["employee_id"]),
                OrderDate = Date(row["order_date"]),
                RequiredDate = Date(row["required_date"]),
                ShippedDate = Date(row["shipped_date"]),
                ShipVia = Int(row["ship_via"]),
                Freight = float.Parse(row["freight"], CultureInfo.InvariantCulture),
                ShipName = row["ship_name"],
                ShipAddress = row["ship_address"],
                ShipCity = row["ship_city"],
                ShipRegion = row["ship_region"],
                ShipPostalCode = row["ship_postal_code"],
                ShipCountry = row["ship_country"],
            };
            orders.Orders.Add(order);
            byId.Add(order.OrderId, order);
        }

        foreach (var row in CsvFile.Read(Path.Combine(dataFolder, "order_details.csv")))
        {
            byId[Int(row["order_id"])].Lines.Add(new OrderLine
            {
                ProductId = Int(row["product_id"]),
                UnitPrice = float.Parse(row["unit_price"], CultureInfo.InvariantCulture),
                Quantity = Int(row["quantity"]),
                Discount = float.Parse(row["discount"], CultureInfo.InvariantCulture),
            });
        }

        return new NorthwindOrders(orders);
    }

    private static int Int(string text) => int.Parse(text, CultureInfo.InvariantCulture);

    // An empty cell is SQL NULL: the field stays unset.
    private static Timestamp? Date(string text) => text.Length == 0
        ? null
        : Timestamp.FromDateTime(DateTime.SpecifyKind(DateTime.ParseExact(text, "yyyy-MM-dd", CultureInfo.InvariantCulture), DateTimeKind.Utc));
}

using System.Globalization;
using Google.Protobuf.WellKnownTypes;
using Northwind;

namespace ProtoHttp.Tests.Formats;

/// <summary>The 830 Northwind orders read from the sample's CSVs (the sample project is not referenced here).</summary>
internal static class NorthwindData
{
    private static readonly Lazy<OrderList> Orders = new(Load);

    public static OrderList All => Orders.Value;

    private static OrderList Load()
    {
        var folder = FindDataFolder();
        var list = new OrderList();
        var byId = new Dictionary<int, Order>();
        foreach (var row in ReadCsv(Path.Combine(folder, "orders.csv")))
        {
            var order = new Order
            {
                OrderId = Int(row[0]),
                CustomerId = row[1],
                EmployeeId = Int(row[2]),
                OrderDate = Date(row[3]),
                RequiredDate = Date(row[4]),
                ShippedDate = Date(row[5]),
                ShipVia = Int(row[6]),
                Freight = float.Parse(row[7], CultureInfo.InvariantCulture),
                ShipName = row[8],
                ShipAddress = row[9],
                ShipCity = row[10],
                ShipRegion = row[11],
                ShipPostalCode = row[12],
                ShipCountry = row[13],
            };
            list.Orders.Add(order);
            byId.Add(order.OrderId, order);
        }

        foreach (var row in ReadCsv(Path.Combine(folder, "order_details.csv")))
        {
            byId[Int(row[0])].Lines.Add(new OrderLine
            {
                ProductId = Int(row[1]),
                UnitPrice = float.Parse(row[2], CultureInfo.InvariantCulture),
                Quantity = Int(row[3]),
                Discount = float.Parse(row[4], CultureInfo.InvariantCulture),
            });
        }

        return list;
    }

    private static string FindDataFolder()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "samples", "SearchService", "Data");
            if (File.Exists(Path.Combine(candidate, "orders.csv")))
            {
                return candidate;
            }
        }

        throw new DirectoryNotFoundException("samples/SearchService/Data not found above the test assembly.");
    }

    // RFC 4180 rows after the header; quoted fields may hold commas, doubled quotes and line breaks.
    private static IEnumerable<List<string>> ReadCsv(string path)
    {
        var text = File.ReadAllText(path);
        var rows = new List<List<string>>();
        var row = new List<string>();
        var field = new System.Text.StringBuilder();
        var quoted = false;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (quoted)
            {
                if (c == '"' && i + 1 < text.Length && text[i + 1] == '"')
                {
                    field.Append('"');
                    i++;
                }
                else if (c == '"')
                {
                    quoted = false;
                }
                else
                {
                    field.Append(c);
                }
            }
            else if (c == '"')
            {
                quoted = true;
            }
            else if (c == ',')
            {
                row.Add(field.ToString());
                field.Clear();
            }
            else if (c == '\n')
            {
                row.Add(field.ToString());
                field.Clear();
                rows.Add(row);
                row = [];
            }
            else if (c != '\r')
            {
                field.Append(c);
            }
        }

        if (field.Length > 0 || row.Count > 0)
        {
            row.Add(field.ToString());
            rows.Add(row);
        }

        return rows.Skip(1);
    }

    private static int Int(string text) => int.Parse(text, CultureInfo.InvariantCulture);

    private static Timestamp? Date(string text) => text.Length == 0
        ? null
        : Timestamp.FromDateTime(DateTime.SpecifyKind(DateTime.ParseExact(text, "yyyy-MM-dd", CultureInfo.InvariantCulture), DateTimeKind.Utc));
}

using Northwind;
using SearchService.Catalog;

namespace ProtoHttp.Bench.Workloads;

/// <summary>Where the sample's data lives next to the binaries, and W3's fixed query.</summary>
public static class Workload
{
    /// <summary>W3's query: it matches exactly one product of the catalogue, so the answer is one result.</summary>
    public const string SearchQuery = "Chai";

    public static string DataFolder => Path.Combine(AppContext.BaseDirectory, "Data");

    public static OrderList LoadOrders() => NorthwindOrders.Load(DataFolder).All;

    public static ProductCatalog LoadCatalog() => ProductCatalog.Load(DataFolder);
}

using Northwind;
using SearchService.Catalog;

namespace ProtoHttp.Bench.Workloads;

/// <summary>Where the sample's data lives next to the binaries, and W3's fixed query.</summary>
public static class Workload
{
    /// <summary>W3's query: its best match is one product of the catalogue.</summary>
    public const string SearchQuery = "Chai";

    /// <summary>W3 asks for one result per page: the sample also lists related products after the matches.</summary>
    public const int SearchPageSize = 1;

    /// <summary>W3's request as a form body or query string.</summary>
    public const string SearchForm = "query=Chai&result_per_page=1";

    public static string DataFolder => Path.Combine(AppContext.BaseDirectory, "Data");

    public static OrderList LoadOrders() => NorthwindOrders.Load(DataFolder).All;

    public static ProductCatalog LoadCatalog() => ProductCatalog.Load(DataFolder);
}

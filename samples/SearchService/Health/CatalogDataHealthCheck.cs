using Microsoft.Extensions.Diagnostics.HealthChecks;
using SearchService.Catalog;

namespace SearchService.Health;

/// <summary>
/// Readiness: the instance has the products and orders it answers from. Both load at startup from the CSV files
/// beside the binaries, so an image built without them (or with them empty) is taken out of rotation, not sent calls
/// it can only answer with empty results.
/// </summary>
internal sealed class CatalogDataHealthCheck(ProductCatalog catalog, NorthwindOrders orders) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var orderCount = orders.All.Orders.Count;
        var description = $"{catalog.Count} products, {orderCount} orders";
        return Task.FromResult(catalog.Count > 0 && orderCount > 0 ? HealthCheckResult.Healthy(description) : HealthCheckResult.Unhealthy(description));
    }
}

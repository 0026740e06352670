using ProtoHttp.Bench.Workloads.Dtos;
using SearchService.Catalog;

namespace PeerServer.Peers;

/// <summary>What a user writes without ProtoHttp: Minimal API endpoints with System.Text.Json over plain classes.</summary>
public static class MinimalApiPeer
{
    public static void Map(IEndpointRouteBuilder endpoints)
    {
        endpoints.MapPost("/minimal/search", (SearchRequestDto request, ProductCatalog catalog) => Search(catalog, request.Query));
        endpoints.MapGet("/minimal/search", (string query, ProductCatalog catalog) => Search(catalog, query));
        endpoints.MapPost("/minimal/echo", (RecordListDto records) => records);
    }

    private static IResult Search(ProductCatalog catalog, string? query)
    {
        if (string.IsNullOrWhiteSpace(query))
        {
            return Results.BadRequest();
        }

        // The same first page of ten the sample's service answers.
        var response = new SearchResponseDto();
        foreach (var product in catalog.Search(query).Take(10))
        {
            response.Result.Add(new SearchResultDto { Url = product.Url, Title = product.Name, Snippets = [.. product.Snippets] });
        }

        return Results.Ok(response);
    }
}

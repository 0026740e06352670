using Microsoft.AspNetCore.Mvc;
using ProtoHttp.Bench.Workloads.Dtos;
using SearchService.Catalog;

namespace PeerServer.Peers;

/// <summary>What a user writes without ProtoHttp: Minimal API endpoints with System.Text.Json over plain classes.</summary>
public static class MinimalApiPeer
{
    public static void Map(IEndpointRouteBuilder endpoints)
    {
        endpoints.MapPost("/minimal/search", (SearchRequestDto request, ProductCatalog catalog) => Search(catalog, request.Query, request.ResultPerPage));
        endpoints.MapGet("/minimal/search", (string query, [FromQuery(Name = "result_per_page")] int? resultPerPage, ProductCatalog catalog) =>
            Search(catalog, query, resultPerPage));
        endpoints.MapPost("/minimal/echo", (RecordListDto records) => records);
    }

    private static IResult Search(ProductCatalog catalog, string? query, int? resultPerPage)
    {
        if (string.IsNullOrWhiteSpace(query))
        {
            return Results.BadRequest();
        }

        // The same first page the sample's service answers (ten by default).
        var response = new SearchResponseDto();
        foreach (var product in catalog.Search(query).Take(resultPerPage ?? 10))
        {
            response.Result.Add(new SearchResultDto { Url = product.Url, Title = product.Name, Snippets = [.. product.Snippets] });
        }

        return Results.Ok(response);
    }
}

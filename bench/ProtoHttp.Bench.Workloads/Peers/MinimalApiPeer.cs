using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Routing;
using ProtoHttp.Bench.Workloads.Dtos;
using SearchService.Catalog;

namespace ProtoHttp.Bench.Workloads.Peers;

/// <summary>
/// What a user writes without ProtoHttp: Minimal API endpoints with System.Text.Json over plain classes. The peer
/// server maps them for the load runs and the in-process handler benchmarks map the same ones.
/// </summary>
public static class MinimalApiPeer
{
    public const string SearchRoute = "/minimal/search";

    public static void Map(IEndpointRouteBuilder endpoints)
    {
        endpoints.MapPost(SearchRoute, (SearchRequestDto request, ProductCatalog catalog) => Search(catalog, request.Query, request.ResultPerPage));
        endpoints.MapGet(SearchRoute, (string query, [FromQuery(Name = "result_per_page")] int? resultPerPage, ProductCatalog catalog) =>
            Search(catalog, query, resultPerPage));
        endpoints.MapPost("/minimal/echo", (RecordListDto records) => records);
    }

    private static IResult Search(ProductCatalog catalog, string? query, int? resultPerPage)
    {
        if (string.IsNullOrWhiteSpace(query))
        {
            return Results.BadRequest();
        }

        return Results.Ok(Answer(catalog, query, resultPerPage));
    }

    /// <summary>The answer's object: the same first page the sample's service answers (ten by default).</summary>
    public static SearchResponseDto Answer(ProductCatalog catalog, string query, int? resultPerPage)
    {
        var response = new SearchResponseDto();
        foreach (var product in catalog.Search(query, take: resultPerPage ?? 10))
        {
            response.Result.Add(new SearchResultDto { Url = product.Url, Title = product.Name, Snippets = [.. product.Snippets] });
        }

        return response;
    }
}

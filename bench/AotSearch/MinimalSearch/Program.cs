using System.Text.Json;
using System.Text.Json.Serialization;
using AotSearch;
using Microsoft.AspNetCore.Http.HttpResults;
using ProtoHttp.Bench.Workloads.Dtos;
using SearchService.Catalog;

// MinimalSearch [--port 5321] [--h2c-port 5322]: POST /minimal/search with a System.Text.Json body (web defaults), the
// same first page the sample's service answers, as bench/PeerServer's Minimal API peer does.
var builder = SearchHost.CreateBuilder(args);
builder.Services.ConfigureHttpJsonOptions(options => options.SerializerOptions.TypeInfoResolverChain.Insert(0, SearchJsonContext.Default));

var app = builder.Build();
app.MapPost("/minimal/search", Results<Ok<SearchResponseDto>, BadRequest> (SearchRequestDto request, ProductCatalog catalog) =>
{
    if (string.IsNullOrWhiteSpace(request.Query))
    {
        return TypedResults.BadRequest();
    }

    var response = new SearchResponseDto();
    foreach (var product in catalog.Search(request.Query, take: request.ResultPerPage ?? 10))
    {
        response.Result.Add(new SearchResultDto { Url = product.Url, Title = product.Name, Snippets = [.. product.Snippets] });
    }

    return TypedResults.Ok(response);
});
app.Run();

/// <summary>System.Text.Json's source-generated metadata for the search's plain classes, with ASP.NET Core's web defaults.</summary>
[JsonSourceGenerationOptions(JsonSerializerDefaults.Web)]
[JsonSerializable(typeof(SearchRequestDto))]
[JsonSerializable(typeof(SearchResponseDto))]
internal sealed partial class SearchJsonContext : JsonSerializerContext;

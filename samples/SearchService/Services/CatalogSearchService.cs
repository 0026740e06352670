using Google.Protobuf.WellKnownTypes;
using Google.Rpc;
using Grpc.Core;
using ProtoService;
using SearchService.Catalog;

namespace SearchService.Services;

/// <summary>SearchService from ProtoService.proto: searches the Northwind catalogue, ranked and paged.</summary>
public sealed class CatalogSearchService(ProductCatalog catalog) : ProtoService.SearchService.SearchServiceBase
{
    private const int DefaultPageSize = 10;
    private const int MaxPageSize = 100;

    public override Task<SearchResponse> Search(SearchRequest request, ServerCallContext context)
    {
        if (string.IsNullOrWhiteSpace(request.Query))
        {
            // Deliberately not an RpcException: the sample keeps a real path to the 500 answer.
            throw new ArgumentException("The query is empty.");
        }

        var page = request.HasPageNumber ? request.PageNumber : 1;
        var size = request.HasResultPerPage ? request.ResultPerPage : DefaultPageSize;
        if (page < 1)
        {
            throw InvalidField("page_number", $"page_number starts at 1, not {page}.");
        }

        if (size is < 1 or > MaxPageSize)
        {
            throw InvalidField("result_per_page", $"result_per_page must be 1 to {MaxPageSize}, not {size}.");
        }

        var response = new SearchResponse();
        // In longs: page_number * result_per_page can pass int.MaxValue, and such a page is simply empty.
        var hits = catalog.Search(request.Query, skip: (long)(page - 1) * size, take: size);
        for (var i = 0; i < hits.Count; i++)
        {
            var product = hits[i];
            var result = new SearchResponse.Types.Result { Url = product.Url, Title = product.Name };
            // One by one: RepeatedField.AddRange takes a list that is not a RepeatedField through its untyped
            // interfaces, a boxed enumerator to look for nulls and then ICollection.CopyTo.
            for (var s = 0; s < product.Snippets.Count; s++)
            {
                result.Snippets.Add(product.Snippets[s]);
            }

            response.Result.Add(result);
        }

        return Task.FromResult(response);
    }

    // A rich error, as Google's APIs send them: the field at fault travels as a google.rpc.BadRequest detail, which
    // gRPC clients read from the status and Connect clients from the error's details.
    private static RpcException InvalidField(string field, string description) =>
        new Google.Rpc.Status
        {
            Code = (int)Code.InvalidArgument,
            Message = description,
            Details = { Any.Pack(new BadRequest { FieldViolations = { new BadRequest.Types.FieldViolation { Field = field, Description = description } } }) },
        }.ToRpcException();
}

using Grpc.Core;
using ProtoService;
using SearchService.Catalog;
using SearchService.Services;

namespace PeerServer.Peers;

/// <summary>The transcoding peer's Search: the sample's own service behind the transcoded route.</summary>
public sealed class TranscodedSearchService(ProductCatalog catalog) : Transcoded.TranscodedSearch.TranscodedSearchBase
{
    private readonly CatalogSearchService _inner = new(catalog);

    public override Task<SearchResponse> Search(SearchRequest request, ServerCallContext context) => _inner.Search(request, context);
}

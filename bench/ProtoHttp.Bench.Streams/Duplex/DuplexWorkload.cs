namespace ProtoHttp.Bench.Streams.Duplex;

/// <summary>W7's paths, the request every client sends, and the answer every peer makes of it.</summary>
public static class DuplexWorkload
{
    /// <summary>The echo under ProtoHttp's own route (<c>/{file}/{Method}</c>): the WebSocket call's path.</summary>
    public const string ProtoHttpEcho = "/DuplexBench.proto/Echo";

    /// <summary>SignalR's hub with the streaming method <c>Echo(stream)</c>.</summary>
    public const string HubPath = "/duplex-hub";

    /// <summary>W3's request: its best match is one product of the catalogue.</summary>
    public static SearchRequest Request { get; } = new() { Query = "Chai", ResultPerPage = 1 };

    /// <summary>The same request as SignalR carries it.</summary>
    public static SearchRequestDto RequestDto { get; } = new() { Query = "Chai", ResultPerPage = 1 };

    /// <summary>W3's answer to <paramref name="request"/>: the one result the sample finds for "Chai", titled with the query.</summary>
    public static SearchResponse Answer(SearchRequest request) => new()
    {
        Result =
        {
            new SearchResponse.Types.Result
            {
                Url = Url,
                Title = request.Query,
                Snippets = { Snippets },
            },
        },
    };

    /// <inheritdoc cref="Answer(SearchRequest)"/>
    public static SearchResponseDto Answer(SearchRequestDto request) =>
        new() { Result = [new SearchResultDto { Url = Url, Title = request.Query, Snippets = Snippets }] };

    private const string Url = "https://northwind.example/products/1";

    // What the sample's catalogue says of Chai (samples/SearchService/Catalog/ProductCatalog.cs).
    private static readonly string[] Snippets =
    [
        "Beverages: Soft drinks, coffees, teas, beers, and ales",
        "10 boxes x 30 bags at $18.00",
        "Supplied by Specialty Biscuits, Ltd., Manchester, UK",
        "Discontinued",
    ];
}

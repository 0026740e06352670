using BenchmarkDotNet.Attributes;
using Google.Protobuf;
using ProtoHttp.Bench.Workloads;
using ProtoService;
using Records;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// The typed client over ProtoHttp.Client's invoker, against an in-memory <see cref="HttpMessageHandler"/>: W3's Search
/// and W2's echo of 100 records. Left out of the run while ProtoHttp.Client has no invoker.
/// </summary>
[MemoryDiagnoser]
public class ClientBenchmarks
{
    private global::ProtoService.SearchService.SearchServiceClient _search = null!;
    private RecordService.RecordServiceClient _echo = null!;
    private SearchRequest _searchRequest = null!;
    private RecordList _records = null!;

    [GlobalSetup]
    public void Setup()
    {
        var catalog = Workload.LoadCatalog();
        var response = new SearchResponse();
        var product = catalog.Search(Workload.SearchQuery)[0];
        var result = new SearchResponse.Types.Result { Url = product.Url, Title = product.Name };
        result.Snippets.Add(product.Snippets);
        response.Result.Add(result);
        _searchRequest = new SearchRequest { Query = Workload.SearchQuery, ResultPerPage = Workload.SearchPageSize };
        _records = RecordFactory.Create(HandlerBenchmarks.EchoRecords);

        _search = new global::ProtoService.SearchService.SearchServiceClient(ClientInvokers.Create(Client(response)));
        _echo = new RecordService.RecordServiceClient(ClientInvokers.Create(Client(_records)));
    }

    [Benchmark]
    public async Task Search_Protobuf()
    {
        var response = await _search.SearchAsync(_searchRequest);
        Check.Equal(1, response.Result.Count, "Search's results");
    }

    [Benchmark]
    public async Task Echo100_Protobuf()
    {
        var response = await _echo.EchoAsync(_records);
        Check.Equal(HandlerBenchmarks.EchoRecords, response.Records.Count, "the records echoed");
    }

    private static HttpClient Client(IMessage response) =>
        new(new CannedResponseHandler(response.ToByteArray(), "application/x-protobuf")) { BaseAddress = new Uri("http://127.0.0.1:5101/") };
}

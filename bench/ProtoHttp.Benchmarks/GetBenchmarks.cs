using System.Buffers;
using System.Text;
using System.Text.Json;
using BenchmarkDotNet.Attributes;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Dtos;
using ProtoHttp.Bench.Workloads.Peers;
using ProtoService;
using SearchService.Catalog;
using SearchService.Services;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// W3's GET (and its JSON POST) in one process: ProtoHttp's endpoint beside the Minimal API endpoints the peer server
/// maps for the load runs (<see cref="MinimalApiPeer"/>), both called on the same <see cref="InMemoryCall"/>; then the
/// parts of each call on their own, so the difference between the two calls can be laid out part by part: binding the
/// query (ProtoHttp into a <see cref="SearchRequest"/>, ASP.NET Core into its query collection for the arguments), the
/// search (the sample's service building messages, the peer building plain classes) and writing the JSON answer
/// (ProtoHttp's writer over the message, System.Text.Json over the plain classes).
/// </summary>
[MemoryDiagnoser]
public class GetBenchmarks
{
    private const string SearchRoute = "/ProtoService.proto/Search";
    private const string Query = "?" + Workload.SearchForm;

    private readonly ArrayBufferWriter<byte> _buffer = new(4096);
    private WebApplication _app = null!;
    private InMemoryCall _call = null!;
    private RequestDelegate _protoHttp = null!;
    private RequestDelegate _minimalGet = null!;
    private RequestDelegate _minimalPost = null!;
    private CatalogSearchService _service = null!;
    private ProductCatalog _catalog = null!;
    private ServerCallContext _bareContext = null!;
    private IMessageReader _queryReader = null!;
    private SearchRequest _request = null!;
    private SearchResponse _response = null!;
    private SearchResponseDto _dto = null!;
    private Utf8JsonWriter _jsonWriter = null!;
    private byte[] _queryBytes = [];
    private byte[] _protoHttpJson = [];
    private byte[] _minimalJson = [];
    private long _protoHttpLength;
    private long _minimalLength;

    [GlobalSetup]
    public void Setup()
    {
        _app = InProcessApp.Build(
            services => services.AddSingleton(Workload.LoadCatalog()).AddProtoHttp(),
            app =>
            {
                app.MapProtoService<CatalogSearchService>();
                MinimalApiPeer.Map(app);
            });
        _protoHttp = InProcessApp.Endpoint(_app, SearchRoute);
        _minimalGet = InProcessApp.Endpoint(_app, MinimalApiPeer.SearchRoute, "GET");
        _minimalPost = InProcessApp.Endpoint(_app, MinimalApiPeer.SearchRoute, "POST");
        _call = new InMemoryCall(_app.Services);
        _catalog = _app.Services.GetRequiredService<ProductCatalog>();
        _service = ActivatorUtilities.CreateInstance<CatalogSearchService>(_app.Services);
        _bareContext = new BareServerCallContext();
        _queryReader = Codecs.All.Codec(CodecNames.Form);
        _queryBytes = Encoding.ASCII.GetBytes(Workload.SearchForm);
        _jsonWriter = new Utf8JsonWriter(_buffer);

        _request = new SearchRequest { Query = Workload.SearchQuery, ResultPerPage = Workload.SearchPageSize };
        _response = _service.Search(_request, _bareContext).Result;
        _dto = MinimalApiPeer.Answer(_catalog, Workload.SearchQuery, Workload.SearchPageSize);
        Check.Equal(1, _response.Result.Count, "W3's results for '" + Workload.SearchQuery + "'");
        Check.Equal(1, _dto.Result.Count, "the Minimal API peer's results for '" + Workload.SearchQuery + "'");
        _protoHttpJson = Codecs.Write(Codecs.Json, _request);
        _minimalJson = JsonSerializer.SerializeToUtf8Bytes(new SearchRequestDto { Query = Workload.SearchQuery, ResultPerPage = Workload.SearchPageSize }, JsonOptions.Web);
        _protoHttpLength = Codecs.Write(Codecs.Json, _response).Length;
        _minimalLength = JsonSerializer.SerializeToUtf8Bytes(_dto, JsonOptions.Web).Length;
    }

    [GlobalCleanup]
    public void Cleanup() => ((IDisposable)_app).Dispose();

    [Benchmark(Baseline = true)]
    public async Task Get_ProtoHttp()
    {
        var (status, length) = await _call.SendAsync(_protoHttp, "GET", SearchRoute, null, [], Query);
        Expect(status, length, _protoHttpLength);
    }

    [Benchmark]
    public async Task Get_MinimalApi()
    {
        var (status, length) = await _call.SendAsync(_minimalGet, "GET", MinimalApiPeer.SearchRoute, null, [], Query);
        Expect(status, length, _minimalLength);
    }

    [Benchmark]
    public async Task PostJson_ProtoHttp()
    {
        var (status, length) = await _call.SendAsync(_protoHttp, "POST", SearchRoute, "application/json", _protoHttpJson);
        Expect(status, length, _protoHttpLength);
    }

    [Benchmark]
    public async Task PostJson_MinimalApi()
    {
        var (status, length) = await _call.SendAsync(_minimalPost, "POST", MinimalApiPeer.SearchRoute, "application/json", _minimalJson);
        Expect(status, length, _minimalLength);
    }

    /// <summary>ProtoHttp's query binding: the query's bytes read into a <see cref="SearchRequest"/> (docs/protocol.md section 3).</summary>
    [Benchmark]
    public void Bind_ProtoHttp()
    {
        var request = (SearchRequest)_queryReader.Read(new ReadOnlySequence<byte>(_queryBytes), SearchRequest.Descriptor);
        Check.That(request.ResultPerPage == Workload.SearchPageSize, "the bound result_per_page");
    }

    /// <summary>What Minimal API's binding reads from: ASP.NET Core's query collection, then the two arguments.</summary>
    [Benchmark]
    public void Bind_MinimalApi()
    {
        var features = new FeatureCollection();
        features.Set<IHttpRequestFeature>(new HttpRequestFeature { QueryString = Query });
        var query = new QueryFeature(features).Query;
        var text = (string?)query["query"];
        var size = int.Parse(query["result_per_page"].ToString(), System.Globalization.CultureInfo.InvariantCulture);
        Check.That(text is not null && size == Workload.SearchPageSize, "the bound arguments");
    }

    [Benchmark]
    public async Task Service_ProtoHttp()
    {
        var response = await _service.Search(_request, _bareContext);
        Check.Equal(1, response.Result.Count, "W3's results");
    }

    [Benchmark]
    public void Service_MinimalApi()
    {
        var response = MinimalApiPeer.Answer(_catalog, Workload.SearchQuery, Workload.SearchPageSize);
        Check.Equal(1, response.Result.Count, "the peer's results");
    }

    [Benchmark]
    public void Write_ProtoHttp()
    {
        _buffer.ResetWrittenCount();
        Codecs.Json.Write(_response, _buffer);
        Check.Equal(_protoHttpLength, _buffer.WrittenCount, "the JSON answer's length");
    }

    [Benchmark]
    public void Write_MinimalApi()
    {
        _buffer.ResetWrittenCount();
        _jsonWriter.Reset(_buffer);
        JsonSerializer.Serialize(_jsonWriter, _dto, JsonOptions.Web);
        Check.Equal(_minimalLength, _buffer.WrittenCount, "the JSON answer's length");
    }

    private static void Expect(int status, long length, long expectedLength)
    {
        Check.Equal(StatusCodes.Status200OK, status, "the HTTP status");
        Check.Equal(expectedLength, length, "the response body's length");
    }
}

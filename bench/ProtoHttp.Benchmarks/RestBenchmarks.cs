using BenchmarkDotNet.Attributes;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Services;
using SearchService.Catalog;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// W8 in one process (BENCHMARKS.md): the same <c>google.api.http</c> rules (bench/ProtoHttp.Bench.Workloads/Protos/rest.proto)
/// served by ProtoHttp's REST routes and by gRPC JSON transcoding, both endpoints called on the same
/// <see cref="InMemoryCall"/> with the endpoint set as routing sets it: W3's search as a GET with query parameters and as
/// a <c>body: "*"</c> POST, W1's GetOrders as a GET. Time and bytes allocated per call, routing and the server excluded.
/// </summary>
[MemoryDiagnoser]
public class RestBenchmarks
{
    private const string ProtoHttpSearch = "/w8/protohttp/search";
    private const string TranscodingSearch = "/w8/transcoding/search";
    private const string ProtoHttpOrders = "/w8/protohttp/orders";
    private const string TranscodingOrders = "/w8/transcoding/orders";
    private const string Query = "?" + Workload.SearchForm;

    private WebApplication _app = null!;
    private InMemoryCall _call = null!;
    private RouteEndpoint _protoHttpSearchGet = null!;
    private RouteEndpoint _protoHttpSearchPost = null!;
    private RouteEndpoint _protoHttpOrders = null!;
    private RouteEndpoint _transcodingSearchGet = null!;
    private RouteEndpoint _transcodingSearchPost = null!;
    private RouteEndpoint _transcodingOrders = null!;
    private byte[] _searchJson = [];
    private long _protoHttpSearchLength;
    private long _transcodingSearchLength;
    private long _protoHttpOrdersLength;
    private long _transcodingOrdersLength;

    [GlobalSetup]
    public void Setup()
    {
        _app = InProcessApp.Build(
            services =>
            {
                services.AddSingleton(Workload.LoadCatalog()).AddSingleton(NorthwindOrders.Load(Workload.DataFolder)).AddProtoHttp();
                services.AddGrpc().AddJsonTranscoding();
            },
            app =>
            {
                app.MapProtoService<ProtoHttpRestService>();
                app.MapGrpcService<TranscodingRestService>();
            });
        _protoHttpSearchGet = InProcessApp.RouteEndpoint(_app, ProtoHttpSearch, HttpMethods.Get);
        _protoHttpSearchPost = InProcessApp.RouteEndpoint(_app, ProtoHttpSearch, HttpMethods.Post);
        _protoHttpOrders = InProcessApp.RouteEndpoint(_app, ProtoHttpOrders, HttpMethods.Get);
        _transcodingSearchGet = InProcessApp.RouteEndpoint(_app, TranscodingSearch, HttpMethods.Get);
        _transcodingSearchPost = InProcessApp.RouteEndpoint(_app, TranscodingSearch, HttpMethods.Post);
        _transcodingOrders = InProcessApp.RouteEndpoint(_app, TranscodingOrders, HttpMethods.Get);
        _call = new InMemoryCall(_app.Services);
        _searchJson = Codecs.Write(Codecs.Json, new ProtoService.SearchRequest { Query = Workload.SearchQuery, ResultPerPage = Workload.SearchPageSize });

        // Each side's answer, checked once, is the length every call must answer with.
        var search = _app.Services.GetRequiredService<ProductCatalog>().Search(Workload.SearchQuery);
        Check.That(search.Count > 0 && search[0].Name == Workload.SearchQuery, "W3's best match");
        _protoHttpSearchLength = Length(_protoHttpSearchGet, "GET", ProtoHttpSearch, null, [], Query);
        _transcodingSearchLength = Length(_transcodingSearchGet, "GET", TranscodingSearch, null, [], Query);
        Check.Equal(_protoHttpSearchLength, Length(_protoHttpSearchPost, "POST", ProtoHttpSearch, "application/json", _searchJson), "the POST's answer beside the GET's");
        Check.Equal(_transcodingSearchLength, Length(_transcodingSearchPost, "POST", TranscodingSearch, "application/json", _searchJson), "transcoding's POST answer beside its GET's");
        _protoHttpOrdersLength = Length(_protoHttpOrders, "GET", ProtoHttpOrders, null, []);
        _transcodingOrdersLength = Length(_transcodingOrders, "GET", TranscodingOrders, null, []);
        Check.That(_protoHttpOrdersLength > 100_000 && _transcodingOrdersLength > 100_000, "W1's 830 orders in both answers");
    }

    [GlobalCleanup]
    public void Cleanup() => ((IDisposable)_app).Dispose();

    [Benchmark(Baseline = true)]
    public Task SearchGet_ProtoHttp() => Expect(_protoHttpSearchGet, "GET", ProtoHttpSearch, null, [], Query, _protoHttpSearchLength);

    [Benchmark]
    public Task SearchGet_Transcoding() => Expect(_transcodingSearchGet, "GET", TranscodingSearch, null, [], Query, _transcodingSearchLength);

    [Benchmark]
    public Task SearchPost_ProtoHttp() => Expect(_protoHttpSearchPost, "POST", ProtoHttpSearch, "application/json", _searchJson, "", _protoHttpSearchLength);

    [Benchmark]
    public Task SearchPost_Transcoding() => Expect(_transcodingSearchPost, "POST", TranscodingSearch, "application/json", _searchJson, "", _transcodingSearchLength);

    [Benchmark]
    public Task OrdersGet_ProtoHttp() => Expect(_protoHttpOrders, "GET", ProtoHttpOrders, null, [], "", _protoHttpOrdersLength);

    [Benchmark]
    public Task OrdersGet_Transcoding() => Expect(_transcodingOrders, "GET", TranscodingOrders, null, [], "", _transcodingOrdersLength);

    private long Length(RouteEndpoint endpoint, string method, string path, string? contentType, byte[] body, string query = "")
    {
        var (status, length) = _call.SendAsync(endpoint, method, path, contentType, body, query).GetAwaiter().GetResult();
        Check.Equal(StatusCodes.Status200OK, status, $"the HTTP status of {method} {path}");
        return length;
    }

    private async Task Expect(RouteEndpoint endpoint, string method, string path, string? contentType, byte[] body, string query, long expectedLength)
    {
        var (status, length) = await _call.SendAsync(endpoint, method, path, contentType, body, query);
        Check.Equal(StatusCodes.Status200OK, status, "the HTTP status");
        Check.Equal(expectedLength, length, "the response body's length");
    }
}

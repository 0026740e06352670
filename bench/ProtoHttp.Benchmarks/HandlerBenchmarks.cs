using System.Text;
using BenchmarkDotNet.Attributes;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Services;
using ProtoService;
using Records;
using SearchService.Catalog;
using SearchService.Services;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// The real call handler, as <c>MapProtoService</c> maps it, on a <see cref="DefaultHttpContext"/> with in-memory pipes:
/// W3's small Search call in every request format, and W2's echo of 100 records. Every call must answer 200 with the
/// expected body size. <see cref="Search_MessagesOnly"/> does what any server must do for the same call (read the
/// protobuf request, call the service, write the protobuf response) on the same context: the difference between it
/// and <see cref="Search_Protobuf"/> is the handler's own cost.
/// </summary>
[MemoryDiagnoser]
public class HandlerBenchmarks
{
    public const int EchoRecords = 100;

    private const string SearchRoute = "/ProtoService.proto/Search";
    private const string EchoRoute = "/Records.proto/Echo";
    private const string ConnectSearchRoute = "/ProtoService.SearchService/Search";
    private const string ConnectEchoRoute = "/Records.RecordService/Echo";

    private WebApplication _app = null!;
    private InMemoryCall _call = null!;
    private RequestDelegate _messagesOnly = null!;
    private RequestDelegate _search = null!;
    private RequestDelegate _echo = null!;
    private RequestDelegate _connectSearch = null!;
    private RequestDelegate _connectEcho = null!;
    private CatalogSearchService _service = null!;
    private ServerCallContext _bareContext = null!;
    private SearchRequest _searchRequest = null!;
    private byte[] _searchProtobuf = [];
    private byte[] _searchJson = [];
    private byte[] _searchXml = [];
    private byte[] _searchForm = [];
    private byte[] _echoProtobuf = [];
    private byte[] _echoJson = [];
    private long _searchProtobufLength;
    private long _searchJsonLength;
    private long _searchXmlLength;

    [GlobalSetup]
    public void Setup()
    {
        _app = InProcessApp.Build(
            services => services.AddSingleton(Workload.LoadCatalog()).AddProtoHttp(),
            app =>
            {
                app.MapProtoService<CatalogSearchService>();
                app.MapProtoService<RecordEchoService>();
            });
        // Made once: a method group passed as a delegate would allocate one per call and inflate the baseline by 64 B.
        _messagesOnly = MessagesOnlyAsync;
        _search = InProcessApp.Endpoint(_app, SearchRoute);
        _echo = InProcessApp.Endpoint(_app, EchoRoute);
        _connectSearch = InProcessApp.ProtocolEndpoint(_app, ConnectSearchRoute, ProtocolNames.Connect);
        _connectEcho = InProcessApp.ProtocolEndpoint(_app, ConnectEchoRoute, ProtocolNames.Connect);
        _call = new InMemoryCall(_app.Services);
        _service = ActivatorUtilities.CreateInstance<CatalogSearchService>(_app.Services);
        _bareContext = new BareServerCallContext();

        _searchRequest = new SearchRequest { Query = Workload.SearchQuery, ResultPerPage = Workload.SearchPageSize };
        var response = _service.Search(_searchRequest, _bareContext).Result;
        Check.Equal(1, response.Result.Count, "W3's results for '" + Workload.SearchQuery + "'");
        _searchProtobuf = _searchRequest.ToByteArray();
        _searchJson = Codecs.Write(Codecs.Json, _searchRequest);
        _searchXml = Codecs.Xml is { } xml ? Codecs.Write(xml, _searchRequest) : [];
        _searchForm = Encoding.ASCII.GetBytes(Workload.SearchForm);
        _searchProtobufLength = response.CalculateSize();
        _searchJsonLength = Codecs.Write(Codecs.Json, response).Length;
        _searchXmlLength = Codecs.Xml is { } x ? Codecs.Write(x, response).Length : 0;

        var records = RecordFactory.Create(EchoRecords);
        _echoProtobuf = records.ToByteArray();
        _echoJson = Codecs.Write(Codecs.Json, records);
    }

    [GlobalCleanup]
    public void Cleanup() => ((IDisposable)_app).Dispose();

    [Benchmark(Baseline = true)]
    public async Task Search_MessagesOnly()
    {
        // A hand-written endpoint for this one method and format: no negotiation, no error funnel, no logging.
        var (status, length) = await _call.SendAsync(_messagesOnly, "POST", SearchRoute, "application/x-protobuf", _searchProtobuf);
        Expect(status, length, _searchProtobufLength);
    }

    [Benchmark]
    public async Task Search_ServiceOnly()
    {
        // The sample's search by itself, no HTTP at all: the part of every W3 call no host can save.
        var response = await _service.Search(_searchRequest, _bareContext);
        Check.Equal(1, response.Result.Count, "W3's results");
    }

    [Benchmark]
    public async Task Search_Protobuf()
    {
        var (status, length) = await _call.SendAsync(_search, "POST", SearchRoute, "application/x-protobuf", _searchProtobuf);
        Expect(status, length, _searchProtobufLength);
    }

    [Benchmark]
    public async Task Search_Json()
    {
        var (status, length) = await _call.SendAsync(_search, "POST", SearchRoute, "application/json", _searchJson);
        Expect(status, length, _searchJsonLength);
    }

    [Benchmark]
    public async Task Search_Xml()
    {
        var (status, length) = await _call.SendAsync(_search, "POST", SearchRoute, "application/xml", _searchXml);
        Expect(status, length, _searchXmlLength);
    }

    [Benchmark]
    public async Task Search_Form()
    {
        // A form body's own format is JSON (docs/protocol.md section 3).
        var (status, length) = await _call.SendAsync(_search, "POST", SearchRoute, "application/x-www-form-urlencoded", _searchForm);
        Expect(status, length, _searchJsonLength);
    }

    [Benchmark]
    public async Task Search_Get()
    {
        var (status, length) = await _call.SendAsync(_search, "GET", SearchRoute, null, [], "?" + Workload.SearchForm);
        Expect(status, length, _searchJsonLength);
    }

    [Benchmark]
    public async Task Echo100_Protobuf()
    {
        var (status, length) = await _call.SendAsync(_echo, "POST", EchoRoute, "application/x-protobuf", _echoProtobuf);
        Expect(status, length, _echoProtobuf.Length);
    }

    [Benchmark]
    public async Task Echo100_Json()
    {
        var (status, length) = await _call.SendAsync(_echo, "POST", EchoRoute, "application/json", _echoJson);
        Expect(status, length, _echoJson.Length);
    }

    // The same calls in the Connect protocol, through the same invoker: the difference is Connect's own handling.
    [Benchmark]
    public async Task Search_Connect_Protobuf()
    {
        var (status, length) = await _call.SendAsync(_connectSearch, "POST", ConnectSearchRoute, "application/proto", _searchProtobuf);
        Expect(status, length, _searchProtobufLength);
    }

    [Benchmark]
    public async Task Search_Connect_Json()
    {
        var (status, length) = await _call.SendAsync(_connectSearch, "POST", ConnectSearchRoute, "application/json", _searchJson);
        Expect(status, length, _searchJsonLength);
    }

    [Benchmark]
    public async Task Echo100_Connect_Protobuf()
    {
        var (status, length) = await _call.SendAsync(_connectEcho, "POST", ConnectEchoRoute, "application/proto", _echoProtobuf);
        Expect(status, length, _echoProtobuf.Length);
    }

    [Benchmark]
    public async Task Echo100_Connect_Json()
    {
        var (status, length) = await _call.SendAsync(_connectEcho, "POST", ConnectEchoRoute, "application/json", _echoJson);
        Expect(status, length, _echoJson.Length);
    }

    private static void Expect(int status, long length, long expectedLength)
    {
        Check.Equal(StatusCodes.Status200OK, status, "the HTTP status");
        Check.Equal(expectedLength, length, "the response body's length");
    }

    private async Task MessagesOnlyAsync(HttpContext context)
    {
        var result = await context.Request.BodyReader.ReadAsync();
        var request = SearchRequest.Parser.ParseFrom(result.Buffer);
        context.Request.BodyReader.AdvanceTo(result.Buffer.End);
        var response = await _service.Search(request, _bareContext);
        context.Response.StatusCode = StatusCodes.Status200OK;
        context.Response.ContentType = "application/x-protobuf";
        context.Response.ContentLength = response.CalculateSize();
        response.WriteTo(context.Response.BodyWriter);
        await context.Response.BodyWriter.FlushAsync();
    }
}

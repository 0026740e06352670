using System.Collections.Frozen;
using Google.Protobuf;
using ProtoHttp.Bench.Workloads;
using ProtoService;
using SearchService.Catalog;

namespace PeerServer.Peers;

/// <summary>
/// The ceiling of BENCHMARKS.md: a middleware ahead of routing that drains the request body and writes bytes computed
/// at startup. No parsing, no service call: what Kestrel itself can do on this machine. The same answers are also
/// mapped as endpoints under <see cref="RoutedPrefix"/>, behind the routing every endpoint framework pays for, so a
/// W3 ratio splits into what routing costs and what ProtoHttp costs.
/// </summary>
public sealed class RawCeiling
{
    public const string Prefix = "/raw/";
    public const string RoutedPrefix = "/raw-routed/";

    private readonly FrozenDictionary<string, (byte[] Body, string ContentType)> _responses;

    public RawCeiling(ProductCatalog catalog)
    {
        var search = new SearchResponse();
        var product = catalog.Search(Workload.SearchQuery)[0];
        var result = new SearchResponse.Types.Result { Url = product.Url, Title = product.Name };
        result.Snippets.Add(product.Snippets);
        search.Result.Add(result);

        var responses = new Dictionary<string, (byte[], string)>
        {
            ["/raw/search.pb"] = (search.ToByteArray(), "application/x-protobuf"),
            ["/raw/search.json"] = (System.Text.Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(search)), "application/json; charset=utf-8"),
        };
        foreach (var count in RecordFactory.Counts)
        {
            // The echo's answer is the request itself, so the ceiling answers the same bytes.
            responses[$"/raw/echo-{count}.pb"] = (RecordFactory.Create(count).ToByteArray(), "application/x-protobuf");
        }

        _responses = responses.ToFrozenDictionary();
    }

    public async Task InvokeAsync(HttpContext context, RequestDelegate next)
    {
        if (!_responses.TryGetValue(context.Request.Path.Value ?? "", out var response))
        {
            await next(context);
            return;
        }

        await AnswerAsync(context, response);
    }

    /// <summary>Maps every ceiling answer as a POST endpoint at <see cref="RoutedPrefix"/>.</summary>
    public void MapRouted(IEndpointRouteBuilder endpoints)
    {
        foreach (var (path, response) in _responses)
        {
            endpoints.MapPost(RoutedPrefix + path[Prefix.Length..], context => AnswerAsync(context, response));
        }
    }

    private static async Task AnswerAsync(HttpContext context, (byte[] Body, string ContentType) response)
    {
        var reader = context.Request.BodyReader;
        while (true)
        {
            var read = await reader.ReadAsync();
            reader.AdvanceTo(read.Buffer.End);
            if (read.IsCompleted)
            {
                break;
            }
        }

        context.Response.StatusCode = StatusCodes.Status200OK;
        context.Response.ContentType = response.ContentType;
        context.Response.ContentLength = response.Body.Length;
        await context.Response.BodyWriter.WriteAsync(response.Body);
    }
}

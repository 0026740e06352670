using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using ProtoService;
using SearchClient;

// Searches the sample server's catalogue through the Grpc.Tools-generated SearchServiceClient, over ProtoHttp, or
// over Connect to any Connect server (--protocol connect):
//   dotnet run --project samples/SearchClient -- chai
var arguments = SearchArguments.Parse(args, out var error);
if (arguments is null)
{
    Console.Error.WriteLine(error);
    Console.Error.WriteLine(SearchArguments.Usage);
    return 2;
}

var services = new ServiceCollection();
services.AddProtoHttpClient<SearchService.SearchServiceClient>(o =>
{
    o.Address = arguments.Address;
    o.Format = arguments.Format;
    o.Protocol = arguments.Protocol;
});
await using var provider = services.BuildServiceProvider();
var client = provider.GetRequiredService<SearchService.SearchServiceClient>();

var request = new SearchRequest { Query = arguments.Query };
if (arguments.Page is { } page)
{
    request.PageNumber = page;
}

try
{
    var response = await client.SearchAsync(request, deadline: DateTime.UtcNow.AddSeconds(10));
    if (response.Result.Count == 0)
    {
        Console.WriteLine($"No products match '{arguments.Query}'.");
    }

    foreach (var result in response.Result)
    {
        Console.WriteLine($"{result.Title}  {result.Url}");
        foreach (var snippet in result.Snippets)
        {
            Console.WriteLine($"    {snippet}");
        }
    }

    return 0;
}
catch (RpcException ex)
{
    // The detail is the ErrorResult's error_text, or a description of whatever else came back.
    Console.Error.WriteLine($"Search failed ({ex.StatusCode}): {ex.Status.Detail}");
    return 1;
}

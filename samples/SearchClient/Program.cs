using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoService;
using SearchClient;

// Searches the sample server's catalogue through the Grpc.Tools-generated SearchServiceClient, over ProtoHttp, or
// over Connect to any Connect server (--protocol connect); --replay and --upload stream orders instead:
//   dotnet run --project samples/SearchClient -- chai
//   dotnet run --project samples/SearchClient -- --replay 3
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
    o.Codec = arguments.Codec;
    o.Protocol = arguments.Protocol;
});
services.AddProtoHttpClient<NorthwindStreams.NorthwindStreamsClient>(o =>
{
    o.Address = arguments.Address;
    o.Codec = arguments.Codec;
    o.Protocol = arguments.Protocol;
});
await using var provider = services.BuildServiceProvider();
if (arguments.Replay is not null || arguments.Upload is not null)
{
    return await OrderStreams.RunAsync(provider.GetRequiredService<NorthwindStreams.NorthwindStreamsClient>(), arguments);
}

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

using Grpc.Core;
using Northwind;

namespace SearchClient;

/// <summary>The streaming commands: <c>--replay N</c> reads a server stream, <c>--upload N</c> writes a client stream.</summary>
internal static class OrderStreams
{
    public static async Task<int> RunAsync(NorthwindStreams.NorthwindStreamsClient client, SearchArguments arguments)
    {
        var deadline = DateTime.UtcNow.AddSeconds(10);
        try
        {
            if (arguments.Replay is { } limit)
            {
                using var replay = client.ReplayOrders(new ReplayRequest { Limit = limit }, deadline: deadline);
                await foreach (var order in replay.ResponseStream.ReadAllAsync())
                {
                    Console.WriteLine($"order {order.OrderId}  {order.CustomerId}  {order.Lines.Count} lines");
                }

                return 0;
            }

            using var upload = client.UploadOrders(deadline: deadline);
            for (var i = 0; i < arguments.Upload; i++)
            {
                await upload.RequestStream.WriteAsync(new Order
                {
                    OrderId = 20_000 + i,
                    Lines = { new OrderLine { ProductId = 1, UnitPrice = 18, Quantity = i + 1 } },
                });
            }

            await upload.RequestStream.CompleteAsync();
            var summary = await upload;
            Console.WriteLine($"uploaded {summary.Orders} orders, {summary.Lines} lines, worth {summary.Total:0.00}");
            return 0;
        }
        catch (RpcException ex)
        {
            Console.Error.WriteLine($"The stream failed ({ex.StatusCode}): {ex.Status.Detail}");
            return 1;
        }
    }
}

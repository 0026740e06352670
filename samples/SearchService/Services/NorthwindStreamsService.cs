using Grpc.Core;
using Northwind;
using ProtoHttp.AspNetCore;
using SearchService.Catalog;
using SearchService.Streams;

namespace SearchService.Services;

/// <summary>NorthwindStreams from NorthwindStreams.proto: every kind of streaming method, in the Northwind theme.</summary>
public sealed class NorthwindStreamsService(PriceTicker ticker, NorthwindOrders orders) : NorthwindStreams.NorthwindStreamsBase
{
    public override Task WatchPrices(PriceWatch request, IServerStreamWriter<PriceTick> responseStream, ServerCallContext context)
    {
        var watched = request.ProductId.ToHashSet();
        // Each tick's event (or line, or envelope) is serialized once per instance for every subscriber; a stream that
        // broke resumes with Last-Event-ID on any instance.
        return ticker.Ticks.SubscribeAsync(responseStream, context, tick => watched.Count == 0 || watched.Contains(tick.ProductId));
    }

    public override async Task ReplayOrders(ReplayRequest request, IServerStreamWriter<Order> responseStream, ServerCallContext context)
    {
        if (request.Limit < 0)
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, "limit cannot be negative."));
        }

        var all = orders.All.Orders;
        var count = request.Limit == 0 ? all.Count : Math.Min(request.Limit, all.Count);
        for (var i = 0; i < count; i++)
        {
            await responseStream.WriteAsync(all[i]);
        }
    }

    public override async Task<UploadSummary> UploadOrders(IAsyncStreamReader<Order> requestStream, ServerCallContext context)
    {
        var summary = new UploadSummary();
        await foreach (var order in requestStream.ReadAllAsync(context.CancellationToken))
        {
            summary.Orders++;
            summary.Lines += order.Lines.Count;
            summary.Total += order.Lines.Sum(l => (double)l.UnitPrice * l.Quantity * (1 - l.Discount));
        }

        return summary;
    }

    public override async Task QuoteLines(IAsyncStreamReader<OrderLine> requestStream, IServerStreamWriter<Quote> responseStream, ServerCallContext context)
    {
        await foreach (var line in requestStream.ReadAllAsync(context.CancellationToken))
        {
            var price = ticker.PriceOf(line.ProductId)
                ?? throw new RpcException(new Status(StatusCode.NotFound, $"There is no product {line.ProductId}."));
            await responseStream.WriteAsync(new Quote
            {
                ProductId = line.ProductId,
                Quantity = line.Quantity,
                UnitPrice = price,
                Total = Math.Round((double)price * line.Quantity * (1 - line.Discount), 2),
            });
        }
    }
}

using Northwind;
using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Dtos;

namespace ProtoHttp.Benchmarks;

/// <summary>W1: the 830 Northwind orders with their 2,155 lines.</summary>
public class NorthwindCodecBenchmarks : CodecBenchmarks<OrderList, OrderListDto>
{
    protected override OrderList Load() => Workload.LoadOrders();

    protected override OrderListDto ToDto(OrderList message) => DtoMapper.ToDto(message);

    // Orders, lines and the last order's id: a lost order, line or field order shows.
    protected override long Fingerprint(OrderList message) =>
        message.Orders.Count * 1_000_000L + message.Orders.Sum(o => o.Lines.Count) * 100_000L + message.Orders[^1].OrderId;

    protected override long Fingerprint(OrderListDto dto) =>
        dto.Orders.Count * 1_000_000L + dto.Orders.Sum(o => o.Lines.Count) * 100_000L + dto.Orders[^1].OrderId;
}

using System.Runtime.Serialization;

namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>Northwind's OrderList as a plain class.</summary>
[DataContract(Name = "OrderList")]
public sealed class OrderListDto
{
    [DataMember(Order = 1)] public List<OrderDto> Orders { get; set; } = [];
}

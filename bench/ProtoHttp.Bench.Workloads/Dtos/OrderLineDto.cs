using System.Runtime.Serialization;

namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>Northwind's OrderLine as a plain class.</summary>
[DataContract(Name = "OrderLine")]
public sealed class OrderLineDto
{
    [DataMember(Order = 1)] public int ProductId { get; set; }
    [DataMember(Order = 2)] public float UnitPrice { get; set; }
    [DataMember(Order = 3)] public int Quantity { get; set; }
    [DataMember(Order = 4)] public float Discount { get; set; }
}

using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Northwind;
using Records;

namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>Copies the protobuf messages into the plain classes, so every serializer works on the same data.</summary>
public static class DtoMapper
{
    public static OrderListDto ToDto(OrderList list) => new()
    {
        Orders = list.Orders.Select(o => new OrderDto
        {
            OrderId = o.OrderId,
            CustomerId = o.CustomerId,
            EmployeeId = o.EmployeeId,
            OrderDate = o.OrderDate?.ToDateTime(),
            RequiredDate = o.RequiredDate?.ToDateTime(),
            ShippedDate = o.ShippedDate?.ToDateTime(),
            ShipVia = o.ShipVia,
            Freight = o.Freight,
            ShipName = o.ShipName,
            ShipAddress = o.ShipAddress,
            ShipCity = o.ShipCity,
            ShipRegion = o.ShipRegion,
            ShipPostalCode = o.ShipPostalCode,
            ShipCountry = o.ShipCountry,
            Lines = o.Lines.Select(l => new OrderLineDto
            {
                ProductId = l.ProductId,
                UnitPrice = l.UnitPrice,
                Quantity = l.Quantity,
                Discount = l.Discount,
            }).ToList(),
        }).ToList(),
    };

    public static RecordListDto ToDto(RecordList list) => new()
    {
        Records = list.Records.Select(r => new RecordDto
        {
            Data = r.Data.ToByteArray(),
            DataBase64 = r.DataBase64,
            Sequence = r.Sequence,
            Value = r.Value,
            Time = r.Time.ToDateTime(),
        }).ToList(),
    };

    public static RecordList FromDto(RecordListDto list)
    {
        var result = new RecordList();
        foreach (var r in list.Records)
        {
            result.Records.Add(new Record
            {
                Data = ByteString.CopyFrom(r.Data),
                DataBase64 = r.DataBase64,
                Sequence = r.Sequence,
                Value = r.Value,
                Time = Timestamp.FromDateTime(DateTime.SpecifyKind(r.Time, DateTimeKind.Utc)),
            });
        }

        return result;
    }
}

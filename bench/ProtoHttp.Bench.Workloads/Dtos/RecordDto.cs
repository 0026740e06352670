using System.Runtime.Serialization;

namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>W2's Record as a plain class.</summary>
[DataContract(Name = "Record")]
public sealed class RecordDto
{
    [DataMember(Order = 1)] public byte[] Data { get; set; } = [];
    [DataMember(Order = 2)] public string DataBase64 { get; set; } = "";
    [DataMember(Order = 3)] public int Sequence { get; set; }
    [DataMember(Order = 4)] public double Value { get; set; }
    [DataMember(Order = 5)] public DateTime Time { get; set; }
}

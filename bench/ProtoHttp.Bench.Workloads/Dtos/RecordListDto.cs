using System.Runtime.Serialization;

namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>W2's RecordList as a plain class.</summary>
[DataContract(Name = "RecordList")]
public sealed class RecordListDto
{
    [DataMember(Order = 1)] public List<RecordDto> Records { get; set; } = [];
}

using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Dtos;
using Records;

namespace ProtoHttp.Benchmarks;

/// <summary>W2: a list of 1,000 records.</summary>
public class RecordCodecBenchmarks : CodecBenchmarks<RecordList, RecordListDto>
{
    public const int Count = 1000;

    protected override RecordList Load() => RecordFactory.Create(Count);

    protected override RecordListDto ToDto(RecordList message) => DtoMapper.ToDto(message);

    // Count, last sequence and last payload byte: a lost record or truncated bytes field shows.
    protected override long Fingerprint(RecordList message) =>
        message.Records.Count * 1_000_000L + message.Records[^1].Sequence * 1000L + message.Records[^1].Data[31];

    protected override long Fingerprint(RecordListDto dto) =>
        dto.Records.Count * 1_000_000L + dto.Records[^1].Sequence * 1000L + dto.Records[^1].Data[31];
}

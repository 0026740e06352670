namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>W3's SearchResponse as a plain class, for the Minimal API peer.</summary>
public sealed class SearchResponseDto
{
    public List<SearchResultDto> Result { get; set; } = [];
}

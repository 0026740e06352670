namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>W3's SearchRequest as a plain class, for the Minimal API peer.</summary>
public sealed class SearchRequestDto
{
    public string? Query { get; set; }
    public int? PageNumber { get; set; }
    public int? ResultPerPage { get; set; }
}

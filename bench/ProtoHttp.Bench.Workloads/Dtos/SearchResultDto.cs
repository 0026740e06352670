namespace ProtoHttp.Bench.Workloads.Dtos;

/// <summary>One result of W3's SearchResponse as a plain class.</summary>
public sealed class SearchResultDto
{
    public string Url { get; set; } = "";
    public string? Title { get; set; }
    public List<string> Snippets { get; set; } = [];
}

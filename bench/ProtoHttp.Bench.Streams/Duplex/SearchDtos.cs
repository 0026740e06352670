namespace ProtoHttp.Bench.Streams.Duplex;

/// <summary>W7's request as a plain C# class: what a SignalR user sends.</summary>
public sealed class SearchRequestDto
{
    public string Query { get; set; } = "";

    public int PageNumber { get; set; }

    public int ResultPerPage { get; set; }
}

/// <summary>W7's answer as a plain C# class.</summary>
public sealed class SearchResponseDto
{
    public SearchResultDto[] Result { get; set; } = [];
}

/// <summary>One result of <see cref="SearchResponseDto"/>.</summary>
public sealed class SearchResultDto
{
    public string Url { get; set; } = "";

    public string Title { get; set; } = "";

    public string[] Snippets { get; set; } = [];
}

namespace SearchService.Catalog;

/// <summary>A catalogue entry as the search sees it: what it is called, where it lives, what to show about it, and its words (split once, at load).</summary>
public sealed record Product(int Id, string Name, string Category, string Url, IReadOnlyList<string> Snippets, IReadOnlyList<(string[] Words, int Weight)> Fields);

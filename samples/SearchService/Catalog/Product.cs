namespace SearchService.Catalog;

/// <summary>A catalogue entry as the search sees it: what it is called, where it lives, and what to show about it.</summary>
public sealed record Product(int Id, string Name, string Category, string Url, IReadOnlyList<string> Snippets, IReadOnlyList<(string Text, int Weight)> Fields);

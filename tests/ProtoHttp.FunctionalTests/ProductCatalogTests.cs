using System.Text.RegularExpressions;
using SearchService.Catalog;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// The sample's word index against the plainest reading of its rules: compare every query word with every word of
/// every product. Both must rank every query alike, word for word of the catalogue, prefixes and combinations.
/// </summary>
public sealed partial class ProductCatalogTests
{
    private static readonly ProductCatalog Catalog = ProductCatalog.Load(Path.Combine(AppContext.BaseDirectory, "Data"));
    private static readonly IReadOnlyList<Product> AllProducts = Catalog.Products;

    [Fact]
    public void RanksEveryQueryLikeAFullScan()
    {
        var mismatches = Queries()
            .Where(query => !FullScan(query).Select(p => p.Id).SequenceEqual(Catalog.Search(query).Select(p => p.Id)))
            .ToList();

        Assert.Empty(mismatches);
    }

    [Theory]
    [InlineData("chai <tea>")]
    [InlineData("chai [tea]")]
    [InlineData("chai {tea}")]
    [InlineData("chai+tea")]
    [InlineData("chai*tea")]
    [InlineData("chai_tea")]
    [InlineData("«chai» #tea")]
    [InlineData("chai|tea=")]
    public void AnyPunctuationSeparatesWordsAsParenthesesDo(string query)
    {
        var hits = Catalog.Search(query);

        Assert.Equal("Chai", hits[0].Name);
        Assert.Equal(Catalog.Search("chai (tea)").Select(p => p.Id), hits.Select(p => p.Id));
    }

    [Fact]
    public void ChaiComesFirstThenTheOtherBeverages()
    {
        var hits = Catalog.Search("chai");

        Assert.Equal("Chai", hits[0].Name);
        Assert.True(hits.Count > 2);
        Assert.All(hits, hit => Assert.Equal("Beverages", hit.Category));
    }

    [Theory]
    [InlineData("chai")]
    [InlineData("sauce")]
    [InlineData("cha")]
    [InlineData("beverages")]
    public void APageIsThatStretchOfTheFullScan(string query)
    {
        var all = FullScan(query).Select(p => p.Id).ToList();
        Assert.True(all.Count > 3, $"'{query}' has {all.Count} results");

        foreach (var (skip, take) in new (long, int)[] { (0, 1), (1, 2), (2, 100), (all.Count - 1, 5), (all.Count, 1), (long.MaxValue - 10, 3) })
        {
            var expected = all.Skip((int)Math.Min(skip, all.Count)).Take(take);
            Assert.Equal(expected, Catalog.Search(query, skip, take).Select(p => p.Id));
        }
    }

    /// <summary>Every word of the catalogue, the first three letters of each upper-cased, and pairs of words.</summary>
    private static HashSet<string> Queries()
    {
        var words = AllProducts.SelectMany(p => p.Fields).SelectMany(f => f.Words).Distinct(StringComparer.OrdinalIgnoreCase).Order(StringComparer.Ordinal).ToList();
        var queries = new HashSet<string>(StringComparer.Ordinal) { "", "  ", "chai", "CHAI", "Chai zzzzzz", "sauce", "ch", "cha", "sea food", "c", "aniseed syrup", "ß", "Pâté", "chai <tea>", "<b>sauce</b>", "sir rodney's", "1/2" };
        for (var i = 0; i < words.Count; i++)
        {
            queries.Add(words[i]);
            queries.Add(words[i][..Math.Min(3, words[i].Length)].ToUpperInvariant());
            queries.Add($"{words[i]} {words[(i * 7 + 3) % words.Count]}");
        }

        Assert.True(queries.Count > 500, $"only {queries.Count} queries");
        return queries;
    }

    /// <summary>The rules as the catalogue states them, one comparison at a time.</summary>
    private static List<Product> FullScan(string query)
    {
        var words = Words().Matches(query).Select(m => m.Value).Distinct(StringComparer.OrdinalIgnoreCase).ToArray();
        if (words.Length == 0)
        {
            return [];
        }

        var matches = AllProducts
            .Select(product => (Product: product, Score: Score(product, words)))
            .Where(hit => hit.Score > 0)
            .OrderByDescending(hit => hit.Score)
            .ThenBy(hit => hit.Product.Name, StringComparer.OrdinalIgnoreCase)
            .Select(hit => hit.Product)
            .ToList();
        if (matches.Count == 0)
        {
            return matches;
        }

        return [.. matches, .. AllProducts.Where(p => p.Category == matches[0].Category && !matches.Contains(p)).OrderBy(p => p.Name, StringComparer.OrdinalIgnoreCase)];
    }

    private static int Score(Product product, string[] words)
    {
        var total = 0;
        foreach (var word in words)
        {
            var best = 0;
            foreach (var (tokens, weight) in product.Fields)
            {
                foreach (var token in tokens)
                {
                    if (token.Equals(word, StringComparison.OrdinalIgnoreCase))
                    {
                        best = Math.Max(best, weight * 2);
                    }
                    else if (word.Length >= 3 && token.StartsWith(word, StringComparison.OrdinalIgnoreCase))
                    {
                        best = Math.Max(best, weight);
                    }
                }
            }

            if (best == 0)
            {
                return 0;
            }

            total += best;
        }

        return total;
    }

    /// <summary>A word, as the catalogue reads one: letters, decimal digits and the marks that combine with them.</summary>
    [GeneratedRegex(@"[\p{L}\p{Nd}\p{Mn}\p{Mc}]+")]
    private static partial Regex Words();
}

using System.Globalization;

namespace SearchService.Catalog;

/// <summary>
/// The Northwind products with their categories and suppliers, searched by words: every query word must match a
/// word of the product (case-insensitively, whole word or prefix), and matches in the name weigh most. After the
/// matches come the other products of the best match's category, as a shop's "related products" would.
/// </summary>
public sealed class ProductCatalog
{
    private const int NameWeight = 4;
    private const int CategoryWeight = 2;
    private const int OtherWeight = 1;

    /// <summary>Catalogues up to this size score a query on the stack, allocating nothing per product.</summary>
    private const int MaxStackProducts = 1024;

    /// <summary>Queries up to this length are read on the stack.</summary>
    private const int MaxStackQuery = 256;

    private readonly IReadOnlyList<Product> _products;
    private readonly WordIndex _index;

    /// <summary>Each product's place in name order, the tie-break between equal scores, and its inverse.</summary>
    private readonly int[] _nameRank;
    private readonly int[] _inNameOrder;

    /// <summary>Each product's category's products in name order, its "related products" (one array per category).</summary>
    private readonly int[][] _relatedOf;

    private ProductCatalog(IReadOnlyList<Product> products)
    {
        _products = products;
        _index = new WordIndex(products);

        _inNameOrder = [.. Enumerable.Range(0, products.Count).OrderBy(i => products[i].Name, StringComparer.OrdinalIgnoreCase)];
        _nameRank = new int[products.Count];
        for (var rank = 0; rank < _inNameOrder.Length; rank++)
        {
            _nameRank[_inNameOrder[rank]] = rank;
        }

        var categoryInNameOrder = _inNameOrder.GroupBy(i => products[i].Category).ToDictionary(g => g.Key, g => g.ToArray());
        _relatedOf = [.. products.Select(product => categoryInNameOrder[product.Category])];
    }

    public int Count => _products.Count;

    /// <summary>Every product, in the order of the data file.</summary>
    public IReadOnlyList<Product> Products => _products;

    public static ProductCatalog Load(string dataFolder)
    {
        var categories = CsvFile.Read(Path.Combine(dataFolder, "categories.csv"))
            .ToDictionary(c => c["category_id"], c => (Name: c["category_name"], Description: c["description"]));
        var suppliers = CsvFile.Read(Path.Combine(dataFolder, "suppliers.csv"))
            .ToDictionary(s => s["supplier_id"], s => (Name: s["company_name"], City: s["city"], Country: s["country"]));

        var products = CsvFile.Read(Path.Combine(dataFolder, "products.csv")).Select(p =>
        {
            var id = int.Parse(p["product_id"], CultureInfo.InvariantCulture);
            var category = categories[p["category_id"]];
            var supplier = suppliers[p["supplier_id"]];
            var price = decimal.Parse(p["unit_price"], CultureInfo.InvariantCulture);
            var snippets = new List<string>
            {
                $"{category.Name}: {category.Description}",
                $"{p["quantity_per_unit"]} at ${price:0.00}",
                $"Supplied by {supplier.Name}, {supplier.City}, {supplier.Country}",
            };
            if (p["discontinued"] == "1")
            {
                snippets.Add("Discontinued");
            }

            var fields = new List<(string[], int)>
            {
                (Tokenize(p["product_name"]), NameWeight),
                (Tokenize(category.Name), CategoryWeight),
                (Tokenize(category.Description), OtherWeight),
                (Tokenize(supplier.Name), OtherWeight),
                (Tokenize(supplier.Country), OtherWeight),
            };
            return new Product(id, p["product_name"], category.Name, $"https://northwind.example/products/{id}", snippets, fields);
        }).ToList();

        return new ProductCatalog(products);
    }

    /// <summary>
    /// The products that match every word of the query, best first, then the best match's related products: all of
    /// them, or the <paramref name="take"/> after the first <paramref name="skip"/> (a page, which is all a caller
    /// lists, so a page of one costs no list of every match).
    /// </summary>
    public IReadOnlyList<Product> Search(string query, long skip = 0, int take = int.MaxValue)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(skip);
        ArgumentOutOfRangeException.ThrowIfNegative(take);

        // The query is upper-cased once, as the index is, and its words are read in place: this runs on every call,
        // and a query's words live no longer than the search.
        Span<char> upper = query.Length <= MaxStackQuery ? stackalloc char[query.Length] : new char[query.Length];
        query.AsSpan().ToUpperInvariant(upper);
        Span<Range> words = query.Length <= MaxStackQuery ? stackalloc Range[query.Length / 2 + 1] : new Range[query.Length / 2 + 1];
        var wordCount = QueryWords(query, upper, words);
        if (wordCount == 0)
        {
            return [];
        }

        // A product's score is the sum over the query's words of the best weight each earns there; a product that
        // misses one word scores nothing. Counted in place, one slot per product.
        var count = _products.Count;
        Span<int> scores = count <= MaxStackProducts ? stackalloc int[count] : new int[count];
        Span<int> best = count <= MaxStackProducts ? stackalloc int[count] : new int[count];
        scores.Clear();
        for (var w = 0; w < wordCount; w++)
        {
            best.Clear();
            _index.Match(upper[words[w]], best);
            for (var product = 0; product < count; product++)
            {
                scores[product] = best[product] == 0 || (w > 0 && scores[product] == 0) ? 0 : scores[product] + best[product];
            }
        }

        // Best score first, then name order: one sortable number per match, its low half the name rank.
        Span<long> ranking = count <= MaxStackProducts ? stackalloc long[count] : new long[count];
        var matches = 0;
        for (var product = 0; product < count; product++)
        {
            if (scores[product] > 0)
            {
                ranking[matches++] = ((long)(int.MaxValue - scores[product]) << 32) | (uint)_nameRank[product];
            }
        }

        if (matches == 0)
        {
            return [];
        }

        ranking = ranking[..matches];
        ranking.Sort();
        var related = _relatedOf[_inNameOrder[(int)ranking[0]]];
        var results = new List<Product>((int)Math.Clamp(matches + related.Length - skip, 0, take));
        var place = 0L;
        foreach (var key in ranking)
        {
            if (!Offer(_inNameOrder[(int)key]))
            {
                return results;
            }
        }

        foreach (var product in related)
        {
            if (scores[product] == 0 && !Offer(product))
            {
                return results;
            }
        }

        return results;

        // The next product in the list's order: kept when it is on the page; false once the page is full.
        bool Offer(int product)
        {
            if (results.Count == take)
            {
                return false;
            }

            if (place++ >= skip)
            {
                results.Add(_products[product]);
            }

            return true;
        }
    }

    /// <summary>
    /// Where the query's words are in <paramref name="upper"/> (the query upper-cased, which keeps every word where it
    /// was), each word once; the number of words.
    /// </summary>
    private static int QueryWords(string query, ReadOnlySpan<char> upper, Span<Range> words)
    {
        var found = WordRanges(query, words);
        var count = 0;
        for (var i = 0; i < found; i++)
        {
            var seen = false;
            for (var w = 0; w < count && !seen; w++)
            {
                seen = upper[words[w]].SequenceEqual(upper[words[i]]);
            }

            if (!seen)
            {
                words[count++] = words[i];
            }
        }

        return count;
    }

    /// <summary>
    /// The words of a text: runs of letters and digits (with the combining marks that belong to a letter). Everything
    /// else separates words, whatever it is, so <c>chai &lt;tea&gt;</c> finds what <c>chai (tea)</c> finds; a list of
    /// separators would always miss some punctuation or symbol.
    /// </summary>
    private static string[] Tokenize(string text)
    {
        var words = new Range[text.Length / 2 + 1];
        return [.. words[..WordRanges(text, words)].Select(word => text[word])];
    }

    /// <summary>
    /// Where the words of <paramref name="text"/> (<see cref="Tokenize"/>) are, in order, into <paramref name="words"/>
    /// (room for <c>text.Length / 2 + 1</c>, the most a text can hold); the number of words.
    /// </summary>
    private static int WordRanges(ReadOnlySpan<char> text, Span<Range> words)
    {
        var count = 0;
        var start = -1;
        for (var i = 0; i <= text.Length; i++)
        {
            if (i < text.Length && IsWordChar(text[i]))
            {
                start = start < 0 ? i : start;
            }
            else if (start >= 0)
            {
                words[count++] = start..i;
                start = -1;
            }
        }

        return count;
    }

    private static bool IsWordChar(char c) =>
        char.IsLetterOrDigit(c) || CharUnicodeInfo.GetUnicodeCategory(c) is UnicodeCategory.NonSpacingMark or UnicodeCategory.SpacingCombiningMark;
}

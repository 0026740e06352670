namespace SearchService.Catalog;

/// <summary>
/// Every word of the catalogue, upper-cased and sorted, each with the products it appears in and the weight of the
/// field it appears in there. A query word is then one binary search (the whole word) and a walk along its sorted
/// neighbours (the words it begins), instead of a comparison with every word of every product.
/// </summary>
internal sealed class WordIndex
{
    /// <summary>Only words this long also match as the beginning of a longer word: "ch" must not match every "Chef".</summary>
    public const int MinPrefixLength = 3;

    private readonly string[] _words;
    private readonly (int Product, int Weight)[][] _postings;

    public WordIndex(IReadOnlyList<Product> products)
    {
        var postings = new SortedDictionary<string, Dictionary<int, int>>(StringComparer.Ordinal);
        for (var product = 0; product < products.Count; product++)
        {
            foreach (var (words, weight) in products[product].Fields)
            {
                foreach (var word in words)
                {
                    var key = Normalize(word);
                    if (!postings.TryGetValue(key, out var weights))
                    {
                        postings[key] = weights = [];
                    }

                    weights[product] = Math.Max(weights.GetValueOrDefault(product), weight);
                }
            }
        }

        _words = [.. postings.Keys];
        _postings = [.. postings.Values.Select(weights => weights.Select(entry => (entry.Key, entry.Value)).ToArray())];
    }

    /// <summary>Case-insensitive comparison, done once: <see cref="StringComparison.OrdinalIgnoreCase"/> upper-cases too.</summary>
    public static string Normalize(ReadOnlySpan<char> word)
    {
        Span<char> upper = word.Length <= 256 ? stackalloc char[word.Length] : new char[word.Length];
        word.ToUpperInvariant(upper);
        return new string(upper);
    }

    /// <summary>
    /// Raises <paramref name="best"/>[product] to the best weight <paramref name="word"/> (normalized) earns there:
    /// twice the field's weight for the whole word, the field's weight for the beginning of a longer word.
    /// </summary>
    public void Match(string word, Span<int> best)
    {
        var index = Array.BinarySearch(_words, word, StringComparer.Ordinal);
        if (index >= 0)
        {
            foreach (var (product, weight) in _postings[index])
            {
                best[product] = Math.Max(best[product], 2 * weight);
            }
        }

        if (word.Length < MinPrefixLength)
        {
            return;
        }

        // Ordinal order keeps every word that begins with this one right after where it is, or would be.
        for (var i = index >= 0 ? index + 1 : ~index; i < _words.Length && _words[i].StartsWith(word, StringComparison.Ordinal); i++)
        {
            foreach (var (product, weight) in _postings[i])
            {
                best[product] = Math.Max(best[product], weight);
            }
        }
    }
}

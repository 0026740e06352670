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
                    // Case-insensitive comparison, done once: OrdinalIgnoreCase upper-cases too.
                    var key = word.ToUpperInvariant();
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

    /// <summary>Where <paramref name="word"/> is in the ordinal order of the words: its index, or the complement of where it would be.</summary>
    private int Find(ReadOnlySpan<char> word)
    {
        var low = 0;
        var high = _words.Length - 1;
        while (low <= high)
        {
            var middle = low + ((high - low) >> 1);
            var order = _words[middle].AsSpan().SequenceCompareTo(word);
            if (order == 0)
            {
                return middle;
            }

            if (order < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle - 1;
            }
        }

        return ~low;
    }

    /// <summary>
    /// Raises <paramref name="best"/>[product] to the best weight <paramref name="word"/> (upper-cased, as the index is) earns there:
    /// twice the field's weight for the whole word, the field's weight for the beginning of a longer word.
    /// </summary>
    public void Match(ReadOnlySpan<char> word, Span<int> best)
    {
        var index = Find(word);
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
        for (var i = index >= 0 ? index + 1 : ~index; i < _words.Length && _words[i].AsSpan().StartsWith(word, StringComparison.Ordinal); i++)
        {
            foreach (var (product, weight) in _postings[i])
            {
                best[product] = Math.Max(best[product], weight);
            }
        }
    }
}

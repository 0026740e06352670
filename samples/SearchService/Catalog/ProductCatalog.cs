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

    private static readonly char[] Separators = [' ', ',', '.', '-', '/', '(', ')', '\'', '"', '&', ';', ':', '!', '?'];

    private readonly IReadOnlyList<Product> _products;

    private ProductCatalog(IReadOnlyList<Product> products) => _products = products;

    public int Count => _products.Count;

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

    /// <summary>The products that match every word of the query, best first.</summary>
    public IEnumerable<Product> Search(string query)
    {
        var words = Tokenize(query).Distinct(StringComparer.OrdinalIgnoreCase).ToArray();
        if (words.Length == 0)
        {
            return [];
        }

        var matches = _products
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

        var related = _products
            .Where(product => product.Category == matches[0].Category && !matches.Contains(product))
            .OrderBy(product => product.Name, StringComparer.OrdinalIgnoreCase);
        return matches.Concat(related);
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
                return 0; // Every word must match somewhere.
            }

            total += best;
        }

        return total;
    }

    private static string[] Tokenize(string text) =>
        text.Split(Separators, StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}

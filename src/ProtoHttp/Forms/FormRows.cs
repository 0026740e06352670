using System.Text.RegularExpressions;

namespace ProtoHttp.Forms;

/// <summary>
/// The row keys an HTML form without JavaScript can send (docs/protocol.md section 4): <c>tag[]=a</c>, one row of a
/// repeated scalar, and <c>labels[0].key=k&amp;labels[0].value=v</c>, one row of a map. A page cannot drop the rows a
/// user left empty, so an empty row adds nothing; and a map key typed into an input cannot become part of an input's
/// name, so a map row names its key and value apart and is bound once the whole form is read.
/// </summary>
internal sealed partial class FormRows
{
    private const string RowMarker = "[]";

    // Rows in the order their first part arrived, by "labels[0]".
    private readonly Dictionary<string, (string Field, string? Key, string? Value)> _entries = new(StringComparer.Ordinal);
    private readonly List<string> _order = [];

    /// <summary>Whether <paramref name="key"/> is a repeated scalar's row, <c>tag[]</c>; <paramref name="field"/> is then <c>tag</c>.</summary>
    public static bool IsRepeatedRow(string key, out string field)
    {
        var isRow = key.Length > RowMarker.Length && key.EndsWith(RowMarker, StringComparison.Ordinal);
        field = isRow ? key[..^RowMarker.Length] : key;
        return isRow;
    }

    /// <summary>Whether <paramref name="key"/> is one part of a map row, <c>labels[0].key</c> or <c>labels[0].value</c>.</summary>
    public static bool IsMapRowPart(string key) => EntryKey().IsMatch(key);

    /// <summary>
    /// Keeps one part of a map row (<c>labels[0].key</c> or <c>labels[0].value</c>); false for any other key.
    /// <paramref name="field"/> is the map's path, for the caller to check.
    /// </summary>
    /// <exception cref="InvalidMessageException">The row names its key or value twice.</exception>
    public bool TryCollect(string key, string value, out string field)
    {
        if (EntryKey().Match(key) is not { Success: true } match)
        {
            field = key;
            return false;
        }

        var row = match.Groups[1].Value;
        field = match.Groups[2].Value;
        var isKey = match.Groups[3].Value == "key";
        if (!_entries.TryGetValue(row, out var entry))
        {
            _order.Add(row);
            entry = (field, null, null);
        }

        if ((isKey ? entry.Key : entry.Value) is not null)
        {
            throw new InvalidMessageException($"Key '{key}' has two values, but a map row holds one {(isKey ? "key" : "value")}.");
        }

        _entries[row] = isKey ? entry with { Key = value } : entry with { Value = value };
        return true;
    }

    /// <summary>The collected map rows as <c>labels[k]</c> keys and values; rows left empty are skipped.</summary>
    /// <exception cref="InvalidMessageException">A row has a value but no key.</exception>
    public IEnumerable<KeyValuePair<string, string>> Entries()
    {
        foreach (var row in _order)
        {
            var (field, key, value) = _entries[row];
            if (string.IsNullOrEmpty(key))
            {
                if (!string.IsNullOrEmpty(value))
                {
                    throw new InvalidMessageException($"Key '{row}.value' has a value but '{row}.key' is empty: a map entry needs its key.");
                }

                continue;
            }

            yield return new($"{field}[{key}]", value ?? "");
        }
    }

    [GeneratedRegex(@"^(([^\[\]]+)\[\d{1,9}\])\.(key|value)$")]
    private static partial Regex EntryKey();
}

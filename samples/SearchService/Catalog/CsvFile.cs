using System.Text;

namespace SearchService.Catalog;

/// <summary>Reads an RFC 4180 CSV file with a header row into records keyed by column name.</summary>
public static class CsvFile
{
    public static IEnumerable<IReadOnlyDictionary<string, string>> Read(string path)
    {
        using var reader = new StreamReader(path, Encoding.UTF8);
        var header = ReadRecord(reader) ?? throw new InvalidDataException($"{path} is empty; it needs a header row.");
        while (ReadRecord(reader) is { } fields)
        {
            if (fields.Count != header.Count)
            {
                throw new InvalidDataException($"{path}: a row has {fields.Count} fields where the header has {header.Count}.");
            }

            var record = new Dictionary<string, string>(header.Count, StringComparer.Ordinal);
            for (var i = 0; i < header.Count; i++)
            {
                record[header[i]] = fields[i];
            }

            yield return record;
        }
    }

    private static List<string>? ReadRecord(TextReader reader)
    {
        if (reader.Peek() < 0)
        {
            return null;
        }

        var fields = new List<string>();
        var field = new StringBuilder();
        var quoted = false;
        while (true)
        {
            var c = reader.Read();
            if (quoted)
            {
                if (c < 0)
                {
                    throw new InvalidDataException("A quoted CSV field never ends.");
                }

                if (c == '"')
                {
                    if (reader.Peek() == '"')
                    {
                        reader.Read();
                        field.Append('"');
                    }
                    else
                    {
                        quoted = false;
                    }
                }
                else
                {
                    field.Append((char)c);
                }

                continue;
            }

            switch (c)
            {
                case '"':
                    quoted = true;
                    break;
                case ',':
                    fields.Add(field.ToString());
                    field.Clear();
                    break;
                case '\r':
                    break;
                case '\n' or -1:
                    fields.Add(field.ToString());
                    return fields;
                default:
                    field.Append((char)c);
                    break;
            }
        }
    }
}

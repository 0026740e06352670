using System.Text;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>
/// A path template of an <c>HttpRule</c> (google/api/http.proto): literal segments, <c>*</c> (one segment), <c>**</c>
/// (the rest), variables <c>{field.path}</c> or <c>{field.path=segments}</c> over them, and a <c>:verb</c> suffix. It
/// becomes an ASP.NET Core route pattern (routing matches the request), and reads its variables from the request's raw
/// path, decoded as the HttpRule docs say: a one-segment variable decodes everything, <c>%2F</c> too; a variable of
/// several segments decodes everything but <c>%2F</c> (docs/protocol.md section 14).
/// </summary>
internal sealed class PathTemplate
{
    private readonly Segment[] _segments;
    private readonly Variable[] _variables;

    private PathTemplate(string text, Segment[] segments, Variable[] variables, string? verb)
    {
        Text = text;
        _segments = segments;
        _variables = variables;
        Verb = verb;
        _parameterNames = ParameterNames(segments, variables);
        RoutePattern = MakeRoutePattern();
    }

    private readonly string?[] _parameterNames;

    /// <summary>The template as the rule wrote it.</summary>
    public string Text { get; }

    /// <summary>The custom verb after the last segment (<c>cancel</c> of <c>/v1/{name=operations/**}:cancel</c>), or null.</summary>
    public string? Verb { get; }

    /// <summary>The ASP.NET Core route pattern that matches what the template matches (or, for <c>**</c> before a verb, a little more).</summary>
    public string RoutePattern { get; }

    /// <summary>
    /// The route pattern's parameters and what each is: a one-segment variable's parameter is named after its field
    /// (<c>shelf</c>, <c>book_name</c>), a wildcard of a longer variable after its field and its place (<c>name_2</c> in
    /// <c>{name=shelves/*/books/*}</c>), so that descriptions show names a reader can follow.
    /// </summary>
    public IEnumerable<(string Parameter, string FieldPath, bool CatchAll)> Parameters =>
        _variables.SelectMany(v => Enumerable.Range(v.Start, v.End - v.Start)
            .Where(i => _parameterNames[i] is not null)
            .Select(i => (_parameterNames[i]!, v.FieldPath, _segments[i].Kind == SegmentKind.Rest)));

    /// <summary>The route pattern without its parameters' names: two templates of one shape match the same paths.</summary>
    public string Shape => string.Concat(_segments.Select(segment => "/" + segment.Text)) + (Verb is null ? "" : ":" + Verb);

    /// <summary>The field paths the path binds, in proto names (<c>book.name</c>).</summary>
    public IEnumerable<string> FieldPaths => _variables.Select(variable => variable.FieldPath);

    /// <summary>The variables, each with its segments as the template wrote them (for descriptions).</summary>
    public IEnumerable<(string FieldPath, string Pattern)> Variables =>
        _variables.Select(v => (v.FieldPath, string.Join('/', _segments[v.Start..v.End].Select(s => s.Text))));

    /// <summary>Parses <paramref name="text"/>.</summary>
    /// <exception cref="FormatException">The text is not a path template of the HttpRule grammar.</exception>
    public static PathTemplate Parse(string text)
    {
        if (!text.StartsWith('/'))
        {
            throw new FormatException($"The path template '{text}' does not start with '/'.");
        }

        var segments = new List<Segment>();
        var variables = new List<Variable>();
        string? verb = null;
        var position = 1;
        while (position <= text.Length)
        {
            if (position < text.Length && text[position] == '{')
            {
                var close = text.IndexOf('}', position);
                if (close < 0)
                {
                    throw new FormatException($"The path template '{text}' has a '{{' without its '}}'.");
                }

                var inner = text[(position + 1)..close];
                var equals = inner.IndexOf('=');
                var fieldPath = equals < 0 ? inner : inner[..equals];
                var start = segments.Count;
                foreach (var part in (equals < 0 ? "*" : inner[(equals + 1)..]).Split('/'))
                {
                    segments.Add(Segment.Of(part, text));
                }

                variables.Add(new Variable(fieldPath, start, segments.Count));
                position = close + 1;
            }
            else
            {
                var end = position;
                while (end < text.Length && text[end] != '/' && text[end] != ':')
                {
                    end++;
                }

                segments.Add(Segment.Of(text[position..end], text));
                position = end;
            }

            if (position < text.Length && text[position] == ':')
            {
                verb = text[(position + 1)..];
                break;
            }

            if (position < text.Length && text[position] != '/')
            {
                throw new FormatException($"The path template '{text}' has '{text[position]}' where a '/' belongs.");
            }

            position++;
        }

        if (segments.Take(segments.Count - 1).Any(segment => segment.Kind == SegmentKind.Rest))
        {
            throw new FormatException($"The path template '{text}' has '**' before its last segment.");
        }

        return new PathTemplate(text, [.. segments], [.. variables], verb);
    }

    /// <summary>
    /// The value of each variable in <paramref name="rawPath"/> (the path as the client sent it, still percent-encoded,
    /// without the app's path base), or null where the path is not one the template matches: routing matched it ignoring
    /// case and, for <c>**</c> before a verb, without the verb.
    /// </summary>
    public IReadOnlyList<(string FieldPath, string Value)>? Match(string rawPath)
    {
        var path = rawPath.AsSpan().TrimStart('/');
        if (Verb is not null)
        {
            if (!path.EndsWith(":" + Verb, StringComparison.Ordinal))
            {
                return null;
            }

            path = path[..^(Verb.Length + 1)];
        }

        var last = _segments[^1].Kind == SegmentKind.Rest;
        if (_variables.Length == 0 && !last)
        {
            // Literals only (W8's routes): compared segment by segment in place, nothing split or allocated.
            return MatchesSegments(path) ? [] : null;
        }

        var parts = path.ToString().Split('/');
        if (last ? parts.Length < _segments.Length - 1 : parts.Length != _segments.Length)
        {
            return null;
        }

        for (var i = 0; i < _segments.Length; i++)
        {
            if (_segments[i].Kind == SegmentKind.Literal && !string.Equals(Uri.UnescapeDataString(parts[i]), _segments[i].Text, StringComparison.Ordinal))
            {
                return null;
            }
        }

        var values = new (string, string)[_variables.Length];
        for (var i = 0; i < _variables.Length; i++)
        {
            var variable = _variables[i];
            var rest = variable.End == _segments.Length && last;
            var end = rest ? parts.Length : variable.End;
            values[i] = variable.End - variable.Start == 1 && !rest
                ? (variable.FieldPath, Uri.UnescapeDataString(parts[variable.Start]))
                : (variable.FieldPath, DecodeKeepingSlashes(string.Join('/', parts[variable.Start..end])));
        }

        return values;
    }

    // As many segments as the template, each literal equal to its text once decoded (a `*` without a variable matches any segment).
    private bool MatchesSegments(ReadOnlySpan<char> path)
    {
        var count = 0;
        foreach (var range in path.Split('/'))
        {
            if (count == _segments.Length)
            {
                return false;
            }

            var segment = _segments[count++];
            var part = path[range];
            if (segment.Kind == SegmentKind.Literal
                && !(part.Contains('%') ? Uri.UnescapeDataString(part.ToString()) == segment.Text : part.SequenceEqual(segment.Text)))
            {
                return false;
            }
        }

        return count == _segments.Length;
    }

    // Everything but %2F (either case), which stays as sent: a slash inside one segment of a multi-segment value.
    private static string DecodeKeepingSlashes(string raw)
    {
        if (!raw.Contains('%'))
        {
            return raw;
        }

        var decoded = new StringBuilder(raw.Length);
        var start = 0;
        int index;
        while ((index = raw.IndexOf("%2F", start, StringComparison.OrdinalIgnoreCase)) >= 0)
        {
            decoded.Append(Uri.UnescapeDataString(raw[start..index])).Append(raw, index, 3);
            start = index + 3;
        }

        return decoded.Append(Uri.UnescapeDataString(raw[start..])).ToString();
    }

    private string MakeRoutePattern()
    {
        var pattern = new StringBuilder();
        for (var i = 0; i < _segments.Length; i++)
        {
            pattern.Append('/').Append(_segments[i].Kind switch
            {
                SegmentKind.Literal => _segments[i].Text.Replace("{", "{{").Replace("}", "}}"),
                SegmentKind.One => $"{{{_parameterNames[i]}}}",
                _ => $"{{**{_parameterNames[i]}}}",
            });
        }

        // A catch-all cannot carry a literal after it: the verb of `**` is checked by Match instead.
        if (Verb is not null && _segments[^1].Kind != SegmentKind.Rest)
        {
            pattern.Append(':').Append(Verb);
        }

        return pattern.ToString();
    }

    private static string?[] ParameterNames(Segment[] segments, Variable[] variables)
    {
        var names = new string?[segments.Length];
        for (var i = 0; i < segments.Length; i++)
        {
            names[i] = segments[i].Kind == SegmentKind.Literal ? null : $"p{i}";
        }

        foreach (var variable in variables)
        {
            var name = variable.FieldPath.Replace('.', '_');
            var wildcards = Enumerable.Range(variable.Start, variable.End - variable.Start).Where(i => names[i] is not null).ToList();
            for (var k = 0; k < wildcards.Count; k++)
            {
                names[wildcards[k]] = wildcards.Count == 1 && variable.End - variable.Start == 1 ? name : $"{name}_{k + 1}";
            }
        }

        return names;
    }

    private enum SegmentKind
    {
        Literal,
        One,
        Rest,
    }

    private readonly record struct Segment(SegmentKind Kind, string Text)
    {
        public static Segment Of(string text, string template) => text switch
        {
            "" => throw new FormatException($"The path template '{template}' has an empty segment."),
            "*" => new(SegmentKind.One, text),
            "**" => new(SegmentKind.Rest, text),
            _ when text.AsSpan().IndexOfAny("{}*=") >= 0 => throw new FormatException($"The path template '{template}' has a malformed segment '{text}'."),
            _ => new(SegmentKind.Literal, text),
        };
    }

    private readonly record struct Variable(string FieldPath, int Start, int End);
}

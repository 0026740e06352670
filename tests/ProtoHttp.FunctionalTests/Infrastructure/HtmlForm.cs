using System.Net;
using System.Text.RegularExpressions;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>
/// One form of a page, read as a browser reads it for submission: its method, action and controls in document order,
/// and the pairs a browser posts once the controls are filled (HTML's "constructing the entry list").
/// </summary>
public sealed partial class HtmlForm
{
    private HtmlForm(string method, string action, List<Control> controls)
    {
        Method = method;
        Action = action;
        Controls = controls;
    }

    public string Method { get; }

    public string Action { get; }

    public List<Control> Controls { get; }

    /// <summary>The form inside the element with <paramref name="id"/>.</summary>
    public static HtmlForm Find(string page, string id)
    {
        var start = page.IndexOf($" id=\"{id}\"", StringComparison.Ordinal);
        Assert.True(start >= 0, $"The page has no element {id}.");
        var form = FormElement().Match(page, start);
        Assert.True(form.Success, $"{id} holds no form.");
        var attributes = Attributes(form.Groups[1].Value);
        var controls = ControlElement().Matches(form.Groups[2].Value).Select(m => new Control(
            m.Groups["element"].Success ? m.Groups["element"].Value : "input",
            Attributes(m.Groups["attributes"].Value),
            OptionElement().Matches(m.Groups["content"].Value)
                .Select(o => Attributes(o.Groups[1].Value).GetValueOrDefault("value") ?? WebUtility.HtmlDecode(o.Groups[2].Value)).ToList())).ToList();
        return new HtmlForm(attributes["method"], attributes["action"], controls);
    }

    /// <summary>The pairs a browser submits: text as typed, checked boxes, selected options; unnamed controls none.</summary>
    public List<KeyValuePair<string, string>> Pairs() =>
        [.. Controls.Where(c => c.Name.Length > 0).SelectMany(c => c.Submitted().Select(value => new KeyValuePair<string, string>(c.Name, value)))];

    private static Dictionary<string, string> Attributes(string text) =>
        AttributePair().Matches(text).ToDictionary(m => m.Groups[1].Value, m => WebUtility.HtmlDecode(m.Groups[2].Value), StringComparer.Ordinal);

    [GeneratedRegex(@"<form\b([^>]*)>(.*?)</form>", RegexOptions.Singleline)]
    private static partial Regex FormElement();

    [GeneratedRegex(@"<input\b(?<attributes>[^>]*)>|<(?<element>select|textarea)\b(?<attributes>[^>]*)>(?<content>.*?)</\k<element>>", RegexOptions.Singleline)]
    private static partial Regex ControlElement();

    [GeneratedRegex(@"<option\b([^>]*)>(.*?)</option>", RegexOptions.Singleline)]
    private static partial Regex OptionElement();

    [GeneratedRegex(@"([\w-]+)(?:=""([^""]*)"")?")]
    private static partial Regex AttributePair();

    /// <summary>An input, select or textarea, and what the test fills into it.</summary>
    public sealed class Control(string element, Dictionary<string, string> attributes, List<string> options)
    {
        public string Element { get; } = element;

        public Dictionary<string, string> Attributes { get; } = attributes;

        public List<string> Options { get; } = options;

        public string Name => Attributes.GetValueOrDefault("name") ?? "";

        public string Type => Element == "input" ? Attributes.GetValueOrDefault("type") ?? "text" : Element;

        /// <summary>What the user typed, the options chosen or, for a checkbox, whether it is checked ("true").</summary>
        public List<string> Filled { get; } = [];

        public IEnumerable<string> Submitted() => Type switch
        {
            "hidden" => [Attributes.GetValueOrDefault("value") ?? ""],
            "checkbox" => Filled.Count > 0 ? [Attributes["value"]] : [],
            "select" when Attributes.ContainsKey("multiple") => Filled.Where(Options.Contains),
            // A single select submits its first option until one is chosen.
            "select" => [Filled.Count > 0 ? Filled[0] : Options[0]],
            _ => [Filled.Count > 0 ? Filled[0] : ""],
        };
    }
}

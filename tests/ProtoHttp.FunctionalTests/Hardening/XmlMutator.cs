using System.Text;
using System.Text.RegularExpressions;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// XML mutations: syntax errors, wrong values, DTDs, external entities and entity bombs, bad character references,
/// unknown and duplicate elements, attributes and namespaces, deep nesting, invalid UTF-8 and wrong encodings.
/// </summary>
public static partial class XmlMutator
{
    private static readonly string[] ContentTypes = ["application/xml", "text/xml", "application/soap+xml", "application/xml; charset=utf-8"];

    private const string Bomb =
        "<!DOCTYPE root [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">" +
        "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\">" +
        "<!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\"><!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">]><root><text>&h;</text></root>";

    private static readonly string[] Prologues =
    [
        "<!DOCTYPE root>",
        "<!DOCTYPE root [<!ENTITY x \"y\">]>",
        "<!DOCTYPE root [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>",
        "<!DOCTYPE root [<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">]>",
        "<!DOCTYPE root SYSTEM \"http://127.0.0.1:9/root.dtd\">",
        "<!DOCTYPE root [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>",
        "<?xml version=\"1.0\" encoding=\"utf-16\"?>",
        "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>",
        "<?xml version=\"1.1\"?>",
        "<?xml version=\"1.0\"?><?xml version=\"1.0\"?>",
        "<?php echo 1; ?>",
        "<!-- comment -->",
        "\uFEFF",
        "text before",
        "<![CDATA[x]]>",
    ];

    private static readonly string[] Insertions =
    [
        "&x;", "&amp", "&lt", "&#0;", "&#xD800;", "&#x110000;", "&#99999999999;", "&#x;", "&#;", "&#65;", "&#x41;", "&quot;&apos;",
        "<![CDATA[<text>]]>", "]]>", "<!-- -- -->", "<?pi x?>", "<text>dup</text>", "<nope>1</nope>", "<i32>1</i32>", "<a:text>x</a:text>",
        "<text xmlns=\"urn:x\">x</text>", "<child><child><child/></child></child>", "<by_id><key>x</key><value/></by_id>",
        "<counts><key>a</key></counts>", "<counts><value>1</value></counts>", "<tags/>", "<any><type_url>x</type_url><value>!!</value></any>",
        "<extra><a>1</a></extra>", "<mask>a..b</mask>", "<at>10000-01-01T00:00:00Z</at>", "<took>315576000001s</took>", "<", ">", "</x>", "&",
    ];

    public static IEnumerable<FuzzCase> Cases(Random random, IReadOnlyList<(string Path, string Xml)> seeds, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var (path, seed) = random.Pick(seeds);
            var (body, mutation) = Mutate(random, seed);
            yield return FuzzCase.Post(path, random.Pick(ContentTypes), body, mutation, ProtobufMutator.Accept(random));
        }
    }

    public static (byte[] Body, string Mutation) Mutate(Random random, string seed)
    {
        var texts = ElementText().Matches(seed);
        switch (random.Next(10))
        {
            case 0 or 1:
                return Mutations.MutateBytes(random, Mutations.Utf8(seed), "<>/&;#=\"'!?[]x"u8);
            case 2 when texts.Count > 0:
            {
                var text = texts[random.Next(texts.Count)].Groups[1];
                return (Replace(seed, text.Index, text.Length, Escape(random.Pick(Mutations.HostileScalars))), "hostile value");
            }

            case 3:
                return (Mutations.Utf8(random.Pick(Prologues) + seed), "prologue: DTD, entity or declaration");
            case 4:
                return (Mutations.Utf8(random.Next(3) == 0 ? Bomb : random.Pick(Prologues) + Insert(random, seed, "&x;")), "entity");
            case 5:
                return (Mutations.Utf8(Insert(random, seed, random.Pick(Insertions))), "inserted markup");
            case 6:
            {
                var depth = random.Pick(new[] { 99, 100, 101, 1_000, 100_000 });
                var name = random.Pick(new[] { "child", "nope", "extra", "by_id" });
                var xml = "<root>" + Mutations.Repeat($"<{name}>", depth) + (random.Next(3) == 0 ? "" : Mutations.Repeat($"</{name}>", depth)) + "</root>";
                return (Mutations.Utf8(xml), $"nesting depth {depth}");
            }

            case 7:
            {
                var length = random.Pick(new[] { 10_000, 1_000_000, 3_000_000, 5_000_000 });
                var xml = random.Next(2) == 0 ? $"<root><text>{new string('a', length)}</text></root>" : $"<root><{new string('a', length)}/></root>";
                return (Mutations.Utf8(xml), $"overlong string {length:N0}");
            }

            case 8:
            {
                var bytes = Mutations.Utf8(seed).ToList();
                var at = seed.IndexOf('>', random.Next(Math.Max(1, seed.Length)));
                bytes.InsertRange(at < 0 ? 0 : at + 1, random.Pick(Mutations.InvalidUtf8));
                return (random.Next(5) == 0 ? [0xFF, 0xFE, .. Encoding.Unicode.GetBytes(seed)] : bytes.ToArray(), "invalid UTF-8 or another encoding");
            }

            default:
                return (Mutations.Utf8(random.Pick(new[] { "", " ", "<root>", "</root>", "<root/><root/>", "<root><text>a</root>", "<1/>", "<root a=\"1\" a=\"2\"/>", "<x:root/>", "<root>text</root>", "x" })), "whole document");
        }
    }

    private static string Insert(Random random, string seed, string markup)
    {
        var tags = TagEnd().Matches(seed);
        var at = tags.Count == 0 ? 0 : tags[random.Next(tags.Count)].Index + 1;
        return seed.Insert(at, markup);
    }

    private static byte[] Replace(string text, int at, int length, string with) =>
        Encoding.UTF8.GetBytes(new StringBuilder(text).Remove(at, length).Insert(at, with).ToString());

    // Hostile values are meant as element text: markup characters escaped, control characters left for the reader to refuse.
    private static string Escape(string value) => value.Replace("&", "&amp;", StringComparison.Ordinal).Replace("<", "&lt;", StringComparison.Ordinal);

    [GeneratedRegex(">([^<>]+)</")]
    private static partial Regex ElementText();

    [GeneratedRegex(">")]
    private static partial Regex TagEnd();
}

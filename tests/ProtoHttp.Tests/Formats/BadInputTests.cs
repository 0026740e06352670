using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using ProtoHttp.Tests.Protos;
using ProtoService;

namespace ProtoHttp.Tests.Formats;

/// <summary>Malformed and hostile input: always an <see cref="InvalidMessageException"/> that names the problem.</summary>
public class BadInputTests
{
    [Theory]
    [InlineData("<root><query>x</root>", "not well-formed")]
    [InlineData("<root><query>x</query>", "not well-formed")]
    [InlineData("<root/><second/>", "not well-formed")]
    [InlineData("just text", "not well-formed")]
    [InlineData("<root><query>&nbsp;</query></root>", "not well-formed")]
    [InlineData("<root>loose text<query>x</query></root>", "holds field elements, not text")]
    [InlineData("<root><unknown>1</unknown></root>", "<unknown>")]
    [InlineData("<root><page_number>abc</page_number></root>", "'abc' is not a valid int32")]
    [InlineData("<root><page_number>1</page_number><page_number>2</page_number></root>", "appears twice")]
    [InlineData("<root><query><inner/></query></root>", "<query> holds a value, so it cannot contain the element <inner>")]
    public void MalformedXml(string body, string expected) => AssertFails(CodecNames.Xml, body, SearchRequest.Descriptor, expected);

    [Theory]
    [InlineData("<root><bytes_value>not base64!</bytes_value></root>", "'not base64!' is not valid base64")]
    [InlineData("<root><color>COLOR_PURPLE</color></root>", "'COLOR_PURPLE' is not a value of enum Color")]
    [InlineData("<root><created>yesterday</created></root>", "RFC 3339")]
    [InlineData("<root><timeout>5 minutes</timeout></root>", "duration")]
    [InlineData("<root><float_value>1e39</float_value></root>", "not a valid float")]
    [InlineData("<root><uint32_value>-1</uint32_value></root>", "not a valid uint32")]
    [InlineData("<root><labels><key>a</key><nope/></labels></root>", "<nope>")]
    public void BadXmlValues(string body, string expected) => AssertFails(CodecNames.Xml, body, Scalars.Descriptor, expected);

    [Theory]
    [InlineData("<root><query>&#0;</query></root>", "U+0000")]
    [InlineData("<root><query>a&#x1B;b</query></root>", "U+001B")]
    [InlineData("<root><query>&#xFFFE;</query></root>", "U+FFFE")]
    [InlineData("<root><query>&#xDC00;x</query></root>", "U+DC00")]
    public void ACharacterReferenceXmlForbidsIsRefused(string body, string expected) =>
        AssertFails(CodecNames.Xml, body, SearchRequest.Descriptor, expected);

    [Fact]
    public void AnXmlOneofTakesOneMember() =>
        AssertFails(CodecNames.Xml, "<root><text>a</text><number>1</number></root>", Choice.Descriptor, "oneof 'value'");

    [Fact]
    public void AnXmlDtdIsRefused() =>
        AssertFails(CodecNames.Xml, "<?xml version=\"1.0\"?><!DOCTYPE root [<!ELEMENT root ANY>]><root/>", SearchRequest.Descriptor, "DTD");

    [Fact]
    public void AnExternalEntityIsNeverFetched()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var body = $"<?xml version=\"1.0\"?><!DOCTYPE root [<!ENTITY xxe SYSTEM \"http://127.0.0.1:{port}/secret\">"
            + "<!ENTITY file SYSTEM \"file:///etc/passwd\">]><root><query>&xxe;&file;</query></root>";
        AssertFails(CodecNames.Xml, body, SearchRequest.Descriptor, "DTD");
        // A fetch happens inside the read, which has returned: its connection, never accepted, would be queued by now.
        Assert.False(listener.Pending(), "The reader connected to the external entity's URL.");
    }

    [Fact]
    public void AnEntityExpansionBombIsNotExpanded()
    {
        var dtd = new StringBuilder("<!DOCTYPE root [<!ENTITY lol0 \"lol\">");
        for (var i = 1; i < 10; i++)
        {
            dtd.Append(CultureInfo.InvariantCulture, $"<!ENTITY lol{i} \"{string.Concat(Enumerable.Repeat($"&lol{i - 1};", 10))}\">");
        }

        var body = dtd + "]><root><query>&lol9;</query></root>";
        var clock = Stopwatch.StartNew();
        AssertFails(CodecNames.Xml, body, SearchRequest.Descriptor, "DTD");
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(5));
    }

    [Fact]
    public void InvalidUtf8InXmlIsRefused()
    {
        var body = Encoding.UTF8.GetBytes("<root><query>caf</query></root>");
        var bad = body[..16].Concat(new byte[] { 0xC3, 0x28 }).Concat(body[16..]).ToArray();
        var ex = CodecHelpers.ReadFails(CodecNames.Xml, bad, SearchRequest.Descriptor);
        Assert.Contains("not well-formed", ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(CodecNames.Xml)]
    [InlineData(CodecNames.Json)]
    public void NestingIsLimitedToOneHundredLevels(string format)
    {
        // The root counts as the first level, in JSON as in XML.
        var accepted = Read(format, DeepTree(format, levels: 100));
        Assert.Equal(99, Depth(accepted));
        var ex = Assert.Throws<InvalidMessageException>(() => Read(format, DeepTree(format, levels: 101)));
        Assert.Contains(format == CodecNames.Xml ? "deeper than 100" : "too many levels of nesting", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void UnknownXmlIsSkippedButItsDepthIsStillLimited()
    {
        var codecs = new MessageCodecs(FormatOptions.Default with { IgnoreUnknownFields = true });
        string Nested(int levels) => "<root>" + string.Concat(Enumerable.Repeat("<x>", levels)) + string.Concat(Enumerable.Repeat("</x>", levels)) + "<label>ok</label></root>";
        Assert.Equal("ok", ((Tree)CodecHelpers.Read(CodecNames.Xml, Nested(150), Tree.Descriptor, codecs)).Label);
        var ex = CodecHelpers.ReadFails(CodecNames.Xml, Nested(10_000), Tree.Descriptor, codecs);
        Assert.Contains("depth", ex.Message, StringComparison.Ordinal);
    }

    private static Tree Read(string format, string body) => (Tree)CodecHelpers.Read(format, body, Tree.Descriptor);

    private static string DeepTree(string format, int levels) => format == CodecNames.Xml
        ? "<root>" + string.Concat(Enumerable.Repeat("<next>", levels - 1)) + string.Concat(Enumerable.Repeat("</next>", levels - 1)) + "</root>"
        : string.Concat(Enumerable.Repeat("{\"next\":", levels - 1)) + "{}" + new string('}', levels - 1);

    private static int Depth(Tree tree)
    {
        var depth = 0;
        for (var node = tree.Next; node is not null; node = node.Next)
        {
            depth++;
        }

        return depth;
    }

    private static void AssertFails(string format, string body, Google.Protobuf.Reflection.MessageDescriptor descriptor, string expected)
    {
        var ex = CodecHelpers.ReadFails(format, body, descriptor);
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }
}

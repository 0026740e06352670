using System.Globalization;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;
using ProtoHttp.Tests.Protos.Proto2;
using ProtoService;

namespace ProtoHttp.Tests.Formats;

public class XmlCodecTests
{
    [Fact]
    public void ErrorResultIsCodeThenErrorTextInFieldNumberOrder()
    {
        var xml = CodecHelpers.WriteText(CodecNames.Xml, new ErrorResult { Code = "NOT_FOUND", ErrorText = "Method 'X' not found." });
        Assert.Equal("<root><code>NOT_FOUND</code><error_text>Method 'X' not found.</error_text></root>", xml);
    }

    [Fact]
    public void SearchResponseWithOneResultIsTheProtocolExample()
    {
        var response = new SearchResponse { Result = { new SearchResponse.Types.Result { Url = "http://example.com" } } };
        Assert.Equal("<root><result><url>http://example.com</url></result></root>", CodecHelpers.WriteText(CodecNames.Xml, response));
    }

    [Fact]
    public void TheEmptyMessageIsAnEmptyRootAndHasNoDeclaration()
    {
        Assert.Equal("<root></root>", CodecHelpers.WriteText(CodecNames.Xml, new Scalars()));
    }

    [Fact]
    public void ScalarsUseXmlConvertText()
    {
        var xml = CodecHelpers.WriteText(CodecNames.Xml, new Repeated
        {
            Doubles = { double.NaN, double.PositiveInfinity, double.NegativeInfinity, -0.0, 0.1 },
            Int64S = { long.MinValue },
            Bools = { true, false },
        });
        Assert.Equal(
            "<root><doubles>NaN</doubles><doubles>INF</doubles><doubles>-INF</doubles><doubles>-0</doubles><doubles>0.1</doubles>"
            + "<int64s>-9223372036854775808</int64s><bools>true</bools><bools>false</bools></root>",
            xml);
    }

    [Fact]
    public void ReadsAnyRootNameDeclarationCharacterReferencesCdataCommentsAndJsonNames()
    {
        var body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- a request -->\n<SearchRequest xmlns=\"urn:x\">\n"
            + "  <query>&#99;hai &amp; <![CDATA[<tea>]]></query>\n  <pageNumber> 2 </pageNumber>\n</SearchRequest>";
        var request = CodecHelpers.Read<SearchRequest>(CodecNames.Xml, body);
        Assert.Equal("chai & <tea>", request.Query);
        Assert.Equal(2, request.PageNumber);
    }

    [Fact]
    public void AHandWrittenDocumentOfEveryScalarKindReadsAsTheMessageWrittenOutByHand()
    {
        var body = """
            <Scalars>
              <double_value>-1.5E+300</double_value>
              <floatValue>3.25</floatValue>
              <int32_value>-2147483648</int32_value>
              <int64_value>-9223372036854775808</int64_value>
              <uint32_value>4294967295</uint32_value>
              <uint64_value>18446744073709551615</uint64_value>
              <sint32_value>-7</sint32_value>
              <sint64_value>-70000000000</sint64_value>
              <fixed32_value>7</fixed32_value>
              <fixed64_value>70000000000</fixed64_value>
              <sfixed32_value>-8</sfixed32_value>
              <sfixed64_value>-80000000000</sfixed64_value>
              <bool_value>1</bool_value>
              <string_value>caf&#233; &lt;&amp;&gt;</string_value>
              <bytes_value>AAH/</bytes_value>
              <color>COLOR_GREEN</color>
              <tags>a</tags>
              <tags>b</tags>
              <numbers>1</numbers>
              <numbers>-2</numbers>
              <optional_int32>0</optional_int32>
              <optional_string></optional_string>
              <created>1996-07-04T10:00:00.500Z</created>
              <timeout>1.500s</timeout>
              <limit>-3</limit>
              <note>n</note>
              <labels><key>k</key><value>v</value></labels>
              <colors>COLOR_RED</colors>
              <colors>2</colors>
            </Scalars>
            """;

        Assert.Equal(HandWrittenScalars.Expected("café <&>"), CodecHelpers.Read<Scalars>(CodecNames.Xml, body));
    }

    [Fact]
    public void AHandWrittenDocumentOfNestedAndRepeatedMessagesReadsAsTheTreeWrittenOutByHand()
    {
        var body = "<tree><label>root</label><next><label>next</label><next><label>deep</label></next></next>"
            + "<children><label>first</label></children><children><label>second</label><children><label>inner</label></children></children></tree>";

        var expected = new Tree
        {
            Label = "root",
            Next = new Tree { Label = "next", Next = new Tree { Label = "deep" } },
            Children = { new Tree { Label = "first" }, new Tree { Label = "second", Children = { new Tree { Label = "inner" } } } },
        };
        Assert.Equal(expected, CodecHelpers.Read<Tree>(CodecNames.Xml, body));
    }

    [Fact]
    public void ReadsEnumsByNameOrNumberAndMapsWithEitherPartMissing()
    {
        var body = "<r><color>2</color><colors>COLOR_RED</colors><colors>42</colors><labels><value>v</value></labels><labels><key>k</key></labels></r>";
        var scalars = CodecHelpers.Read<Scalars>(CodecNames.Xml, body);
        Assert.Equal(Color.Green, scalars.Color);
        Assert.Equal([Color.Red, (Color)42], scalars.Colors);
        Assert.Equal("v", scalars.Labels[""]);
        Assert.Equal("", scalars.Labels["k"]);
    }

    [Fact]
    public void ElementsOutOfFieldNumberOrderAndInterleavedRepeatedFieldsAreRead()
    {
        // The reader matches the written order first; any other order must still find every field.
        var body = "<r><int32s>1</int32s><doubles>0.5</doubles><int32s>2</int32s><bools>true</bools><int32s>3</int32s><doubles>INF</doubles></r>";
        var repeated = CodecHelpers.Read<Repeated>(CodecNames.Xml, body);
        Assert.Equal([1, 2, 3], repeated.Int32S);
        Assert.Equal([0.5, double.PositiveInfinity], repeated.Doubles);
        Assert.Equal([true], repeated.Bools);

        var request = CodecHelpers.Read<SearchRequest>(CodecNames.Xml, "<r><result_per_page>5</result_per_page><query>q</query><pageNumber>2</pageNumber></r>");
        Assert.Equal(new SearchRequest { Query = "q", PageNumber = 2, ResultPerPage = 5 }, request);
    }

    [Fact]
    public void AnEmptyBodyIsTheEmptyMessage()
    {
        Assert.Equal(new Scalars(), CodecHelpers.Read<Scalars>(CodecNames.Xml, ""));
    }

    [Fact]
    public void WhitespaceOnlyStringsSurvive()
    {
        var scalars = new Scalars { StringValue = " \r\n\t ", Tags = { "  " } };
        Assert.Equal(scalars, CodecHelpers.Read(CodecNames.Xml, CodecHelpers.Write(CodecNames.Xml, scalars), Scalars.Descriptor));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void AStringXmlCannotCarryIsRefusedNamingTheField(int sample)
    {
        // Built here: attribute strings are stored as UTF-8, which cannot hold a lone surrogate.
        var text = new[] { "\0", "bell \u0007", "\uFFFF", "lone \uD800 surrogate" }[sample];
        var ex = Assert.Throws<UnwritableMessageException>(() => CodecHelpers.Write(CodecNames.Xml, new Scalars { StringValue = text }));
        Assert.Contains("string_value", ex.Message, StringComparison.Ordinal);
        Assert.Contains("XML 1.0 cannot carry", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void LongStringsAndBytesAreReadWhole()
    {
        var scalars = new Scalars { StringValue = new string('x', 1_000_000), BytesValue = ByteString.CopyFrom(new byte[300_000]) };
        Assert.Equal(scalars, CodecHelpers.Read(CodecNames.Xml, CodecHelpers.Write(CodecNames.Xml, scalars), Scalars.Descriptor));
    }

    [Fact]
    public void SurrogatePairsAreWritten()
    {
        var scalars = new Scalars { StringValue = "😀\uD83D\uDE00" };
        Assert.Equal(scalars, CodecHelpers.Read(CodecNames.Xml, CodecHelpers.Write(CodecNames.Xml, scalars), Scalars.Descriptor));
    }

    [Fact]
    public void UnknownElementsAreIgnoredWhenTheOptionsSaySo()
    {
        var codecs = new MessageCodecs(FormatOptions.Default with { IgnoreUnknownFields = true });
        var request = (SearchRequest)CodecHelpers.Read(CodecNames.Xml, "<r><extra><deep>1</deep></extra><query>q</query></r>", SearchRequest.Descriptor, codecs);
        Assert.Equal("q", request.Query);
    }

    [Fact]
    public void ProtoTwoGroupsAreLowerCaseNestedElements()
    {
        var legacy = CodecHelpers.Read<Legacy>(CodecNames.Xml, "<root><id>1</id><item><name>a</name></item><item><name>b</name></item><extra><note>n</note></extra></root>");
        Assert.Equal(["a", "b"], legacy.Item.Select(item => item.Name));
        Assert.Equal("n", legacy.Extra.Note);
    }

    [Fact]
    public void WellKnownTypesAreTheTextOfTheirJsonForm()
    {
        var message = new WellKnown
        {
            Timestamp = new Timestamp { Seconds = 1, Nanos = 500_000_000 },
            Duration = new Duration { Seconds = 90 },
            Int64Wrapper = 5,
            FieldMask = new FieldMask { Paths = { "a_b" } },
            Value = Value.ForNumber(1),
        };
        Assert.Equal(
            "<root><timestamp>1970-01-01T00:00:01.500Z</timestamp><duration>90s</duration><int64_wrapper>5</int64_wrapper>"
            + "<field_mask>aB</field_mask><value>1</value></root>",
            CodecHelpers.WriteText(CodecNames.Xml, message));
        var read = CodecHelpers.Read<WellKnown>(CodecNames.Xml, "<r><timestamp>1970-01-01T02:00:01.5+02:00</timestamp><duration>-0.25s</duration></r>");
        Assert.Equal(new Timestamp { Seconds = 1, Nanos = 500_000_000 }, read.Timestamp);
        Assert.Equal(new Duration { Nanos = -250_000_000 }, read.Duration);
    }

    [Fact]
    public void AStreamOfManySegmentsReadsLikeOneArray()
    {
        var bytes = CodecHelpers.Write(CodecNames.Xml, AllTypesSamples.All["all-types"]);
        var sequence = SegmentedSequence.Create(bytes, segmentLength: 7);
        var read = CodecHelpers.Codecs.Codec(CodecNames.Xml).Read(sequence, AllTypes.Descriptor);
        Assert.Equal(AllTypesSamples.All["all-types"].ToByteArray(), read.ToByteArray());
    }

    [Theory]
    [InlineData("<int32_value>42</int32_value>", "42")]
    [InlineData("<int32_value>\n 42\t</int32_value>", "42")]
    [InlineData("<int32_value>4<!-- x -->2</int32_value>", "42")]
    [InlineData("<int32_value><!-- x -->4<![CDATA[2]]></int32_value>", "42")]
    [InlineData("<int32_value><![CDATA[42]]></int32_value>", "42")]
    [InlineData("<int32_value>&#52;&#x32;</int32_value>", "42")]
    [InlineData("<string_value></string_value>", "")]
    [InlineData("<string_value/>", "")]
    [InlineData("<string_value> </string_value>", " ")]
    [InlineData("<string_value> a </string_value>", " a ")]
    [InlineData("<string_value>a<!-- x -->b</string_value>", "ab")]
    [InlineData("<string_value>a<![CDATA[<b>]]>c</string_value>", "a<b>c")]
    [InlineData("<string_value><![CDATA[x]]>y</string_value>", "xy")]
    [InlineData("<string_value>&lt;&#x1F600;&gt;</string_value>", "<\U0001F600>")]
    public void LeafTextIsJoinedAcrossCommentsCdataAndReferences(string element, string expected)
    {
        var scalars = CodecHelpers.Read<Scalars>(CodecNames.Xml, $"<root>{element}<bool_value>true</bool_value></root>");
        Assert.Equal(expected, element.StartsWith("<int32", StringComparison.Ordinal) ? scalars.Int32Value.ToString(CultureInfo.InvariantCulture) : scalars.StringValue);
        Assert.True(scalars.BoolValue);
    }

    [Theory]
    [InlineData("<int32_value></int32_value>", "<int32_value>: '' is not a valid int32.")]
    [InlineData("<int32_value/>", "<int32_value>: '' is not a valid int32.")]
    [InlineData("<int32_value>4<!-- x --> 2</int32_value>", "<int32_value>: '4 2' is not a valid int32.")]
    [InlineData("<string_value>a<!-- x -->&#0;</string_value>", "The XML body is not well-formed: <string_value> holds a character reference to U+0000, a character XML 1.0 does not allow.")]
    [InlineData("<string_value>a<b/></string_value>", "<string_value> holds a value, so it cannot contain the element <b>.")]
    public void BadLeafTextHasItsOwnMessage(string element, string expected)
    {
        var ex = CodecHelpers.ReadFails(CodecNames.Xml, $"<root>{element}</root>", Scalars.Descriptor);
        Assert.Equal(expected, ex.Message);
    }

    [Fact]
    public void InvalidUtf8InAStringIsNamedAsSuch()
    {
        var bad = Encoding.UTF8.GetBytes("<root><string_value>caf\u00E9</string_value></root>");
        bad[Array.IndexOf(bad, (byte)0xA9)] = 0x28;
        var ex = CodecHelpers.ReadFails(CodecNames.Xml, bad, Scalars.Descriptor);
        Assert.Equal("The XML body is not well-formed: it is not valid UTF-8.", ex.Message);
    }
}

using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;
using ProtoService;

namespace ProtoHttp.Tests.Formats;

public class FormBinderTests
{
    [Fact]
    public void BindsTheSearchQueryOfTheProtocol()
    {
        var request = Bind<SearchRequest>("query=chai+tea&page_number=1&resultPerPage=2");
        Assert.Equal(new SearchRequest { Query = "chai tea", PageNumber = 1, ResultPerPage = 2 }, request);
    }

    [Theory]
    [InlineData("scalars")]
    [InlineData("scalars-edges-min")]
    [InlineData("scalars-edges-max")]
    [InlineData("scalars-empty")]
    public void AQueryStringBuiltFromAFlatMessageBindsToThatMessage(string sample)
    {
        var message = AllTypesSamples.All[sample];

        Assert.Equal(message, CodecHelpers.Read(CodecNames.Form, QueryString(message), message.Descriptor));
    }

    [Fact]
    public void AHandWrittenQueryOfEveryScalarKindBindsToTheMessageWrittenOutByHand()
    {
        var query = "double_value=-1.5E%2B300&floatValue=3.25&int32_value=-2147483648&int64_value=-9223372036854775808"
            + "&uint32_value=4294967295&uint64_value=18446744073709551615&sint32_value=-7&sint64_value=-70000000000"
            + "&fixed32_value=7&fixed64_value=70000000000&sfixed32_value=-8&sfixed64_value=-80000000000&bool_value=true"
            + "&string_value=caf%C3%A9+%26+%3D&bytes_value=AAH%2F&color=COLOR_GREEN&tags=a&tags=b&numbers=1&numbers=-2"
            + "&optional_int32=0&optional_string=&created=1996-07-04T10:00:00.500Z&timeout=1.500s&limit=-3&note=n"
            + "&labels%5Bk%5D=v&colors=COLOR_RED&colors=2";

        Assert.Equal(HandWrittenScalars.Expected("café & ="), Bind<Scalars>(query));
    }

    [Fact]
    public void DecodesPlusAndPercentInNamesAndValuesAndSkipsEmptyPairs()
    {
        var scalars = Bind<Scalars>("&string%5Fvalue=caf%C3%A9+%26+%2B1&&labels%5Ba+b%5D=%3D&tags&tags=x&");
        Assert.Equal("café & +1", scalars.StringValue);
        Assert.Equal("=", scalars.Labels["a b"]);
        Assert.Equal(["", "x"], scalars.Tags);
    }

    [Fact]
    public void AnEmptyValueLeavesNonStringFieldsUnsetAndSetsStrings()
    {
        var scalars = Bind<Scalars>("int32_value=&optional_int32=&created=&bytes_value=&color=&limit=&optional_string=&note=&numbers=");
        Assert.Equal(new Scalars { OptionalString = "", Note = "" }, scalars);
    }

    [Fact]
    public void ValuesTakeTheTextFormsOfSectionFour()
    {
        var scalars = Bind<Scalars>(
            "bool_value=TRUE&color=2&colors=COLOR_RED&colors=9&bytes_value=-_8&double_value=-INF&float_value=NaN"
            + "&created=1996-07-04T12:00:00.5%2B02:00&timeout=1.5s&limit=-3&uint64_value=18446744073709551615&int64Value=-1");
        Assert.True(scalars.BoolValue);
        Assert.Equal(Color.Green, scalars.Color);
        Assert.Equal([Color.Red, (Color)9], scalars.Colors);
        Assert.Equal(new byte[] { 0xFB, 0xFF }, scalars.BytesValue.ToByteArray());
        Assert.Equal(double.NegativeInfinity, scalars.DoubleValue);
        Assert.True(float.IsNaN(scalars.FloatValue));
        Assert.Equal(Timestamp.FromDateTime(new DateTime(1996, 7, 4, 10, 0, 0, 500, DateTimeKind.Utc)), scalars.Created);
        Assert.Equal(new Duration { Seconds = 1, Nanos = 500_000_000 }, scalars.Timeout);
        Assert.Equal(-3, scalars.Limit);
        Assert.Equal(ulong.MaxValue, scalars.Uint64Value);
        Assert.Equal(-1, scalars.Int64Value);
        Assert.False(Bind<Scalars>("bool_value=0").BoolValue);
        Assert.True(Bind<Scalars>("bool_value=1").BoolValue);
    }

    [Fact]
    public void DottedPathsReachSingularNestedMessagesAndMaps()
    {
        var all = Bind<AllTypes>("scalars.int32_value=5&nested.child.name=x&tree.next.next.label=deep&wellKnown.timestamp=1970-01-01T00:00:00Z"
            + "&maps.int32_to_string[-1]=minus&maps.bool_to_enum[true]=COLOR_BLUE&choice.text=t");
        Assert.Equal(5, all.Scalars.Int32Value);
        Assert.Equal("x", all.Nested.Child.Name);
        Assert.Equal("deep", all.Tree.Next.Next.Label);
        Assert.Equal(new Timestamp(), all.WellKnown.Timestamp);
        Assert.Equal("minus", all.Maps.Int32ToString[-1]);
        Assert.Equal(Color.Blue, all.Maps.BoolToEnum[true]);
        Assert.Equal("t", all.Choice.Text);
        Assert.Null(Bind<AllTypes>("nested.value=&nested.child.value=").Nested);
    }

    [Fact]
    public void MissingRequiredFieldsAreNamedAfterBinding()
    {
        var request = Bind<SearchRequest>("page_number=1");
        var ex = Assert.Throws<InvalidMessageException>(() => RequiredFields.Check(request, ExtensionCatalog.Empty));
        Assert.Contains("'query'", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void UnknownKeysAreIgnoredWhenTheOptionsSaySo()
    {
        var codecs = new MessageCodecs(FormatOptions.Default with { IgnoreUnknownFields = true });
        var request = (SearchRequest)CodecHelpers.Read(CodecNames.Form, "unknown=1&query=q&nested.unknown=2", SearchRequest.Descriptor, codecs);
        Assert.Equal("q", request.Query);
    }

    [Theory]
    [InlineData("page_number=abc", "Key 'page_number': 'abc' is not a valid int32.")]
    [InlineData("page_number=1&page_number=2", "Key 'page_number' has two values")]
    [InlineData("page_number=1&pageNumber=2", "Key 'pageNumber' has two values")]
    [InlineData("query=q&page_number=1&page_number=2", "Key 'page_number' has two values")]
    [InlineData("query=q&page_number=1&result_per_page=3&resultPerPage=4", "Key 'resultPerPage' has two values")]
    [InlineData("query=q&page_number=1&result_per_page=3&query=r", "Key 'query' has two values")]
    [InlineData("unknown=1", "Unknown key 'unknown'")]
    [InlineData("query=%zz", "Key 'query': '%' must be followed by two hexadecimal digits.")]
    [InlineData("query=abc%2", "Key 'query': '%' must be followed by two hexadecimal digits.")]
    [InlineData("qu%ery=1", "Key 'qu%ery': '%' must be followed")]
    [InlineData("query=%C3%28", "Key 'query': the percent-decoded bytes are not valid UTF-8.")]
    [InlineData("query.x=1", "Key 'query.x': 'query' is not a message")]
    [InlineData("query[x]=1", "Key 'query[x]': 'query' is not a map")]
    public void SearchRequestMistakesNameTheKey(string query, string expected) => AssertFails(query, SearchRequest.Descriptor, expected);

    [Theory]
    [InlineData("result.url=x", "Key 'result.url': 'result' is a repeated message field")]
    [InlineData("result=x", "Key 'result': 'result' is a repeated message field")]
    public void RepeatedMessagesCannotBeBound(string query, string expected) => AssertFails(query, SearchResponse.Descriptor, expected);

    [Theory]
    [InlineData("bytes_value=not*base64", "Key 'bytes_value': 'not*base64' is not valid base64.")]
    [InlineData("bytes_value=abcde", "Key 'bytes_value': 'abcde' is not valid base64.")]
    [InlineData("color=COLOR_PURPLE", "Key 'color': 'COLOR_PURPLE' is not a value of enum Color.")]
    [InlineData("bool_value=yes", "Key 'bool_value': 'yes' is not a valid bool.")]
    [InlineData("int32_value=2147483648", "Key 'int32_value': '2147483648' is not a valid int32.")]
    [InlineData("created=1996-07-04", "Key 'created'")]
    [InlineData("timeout=90", "Key 'timeout'")]
    [InlineData("labels=x", "Key 'labels': 'labels' is a map")]
    [InlineData("labels[a=x", "Key 'labels[a'")]
    [InlineData("labels[a]=1&labels[a]=2", "Key 'labels[a]' has two values")]
    public void ScalarsMistakesNameTheKey(string query, string expected) => AssertFails(query, Scalars.Descriptor, expected);

    [Theory]
    [InlineData("nested=x", "Key 'nested': 'nested' is a message; bind its fields as nested.name=value.")]
    [InlineData("maps.int32_to_string[x]=1", "Key 'maps.int32_to_string[x]': 'x' is not a valid int32.")]
    [InlineData("maps.int64_to_message[1]=x", "Key 'maps.int64_to_message[1]'")]
    [InlineData("repeated.messages.name=x", "'messages' is a repeated message field")]
    [InlineData("choice.text=a&choice.number=1", "'number' and 'text' are both in oneof 'value'")]
    public void NestedMistakesNameTheKey(string query, string expected) => AssertFails(query, AllTypes.Descriptor, expected);

    [Fact]
    public void DottedPathsAreDepthLimited()
    {
        var deep = string.Join('.', Enumerable.Repeat("next", 101)) + ".label=x";
        AssertFails(deep, Tree.Descriptor, "nests deeper than 100 fields");
        var tree = Bind<Tree>(string.Join('.', Enumerable.Repeat("next", 99)) + ".label=x");
        for (var i = 0; i < 99; i++)
        {
            tree = tree.Next;
        }

        Assert.Equal("x", tree.Label);
    }

    private static T Bind<T>(string query)
        where T : IMessage<T>, new() => CodecHelpers.Read<T>(CodecNames.Form, query);

    private static void AssertFails(string query, MessageDescriptor descriptor, string expected)
    {
        var ex = CodecHelpers.ReadFails(CodecNames.Form, query, descriptor);
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    // The message in Google.Protobuf's own JSON (JsonFormatter, not ProtoHttp's codec), one pair per member: a
    // repeated field's items under its name, a map's entries as name[key], each value as JSON writes it (strings
    // unquoted), which is the text form docs/protocol.md section 4 gives the form binder. The samples are flat: their
    // only message fields are well-known types, which JSON writes as strings or numbers.
    private static string QueryString(IMessage message)
    {
        using var json = JsonDocument.Parse(JsonFormatter.Default.Format(message));
        var pairs = new List<string>();
        foreach (var member in json.RootElement.EnumerateObject())
        {
            switch (member.Value.ValueKind)
            {
                case JsonValueKind.Array:
                    pairs.AddRange(member.Value.EnumerateArray().Select(item => Pair(member.Name, Text(item))));
                    break;
                case JsonValueKind.Object:
                    pairs.AddRange(member.Value.EnumerateObject().Select(entry => Pair($"{member.Name}[{entry.Name}]", Text(entry.Value))));
                    break;
                default:
                    pairs.Add(Pair(member.Name, Text(member.Value)));
                    break;
            }
        }

        return string.Join('&', pairs);
    }

    private static string Text(JsonElement value) => value.ValueKind == JsonValueKind.String ? value.GetString()! : value.GetRawText();

    private static string Pair(string name, string value) =>
        Uri.EscapeDataString(name) + "=" + Uri.EscapeDataString(value).Replace("%20", "+", StringComparison.Ordinal);
}

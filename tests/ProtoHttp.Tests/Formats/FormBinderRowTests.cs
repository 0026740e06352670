using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Formats;

/// <summary>The keys an HTML form without JavaScript sends (docs/protocol.md section 4): rows, local date-times, oneofs.</summary>
public class FormBinderRowTests
{
    [Fact]
    public void RepeatedRowsAddTheirValuesInOrderAndNothingWhenEmpty()
    {
        var scalars = Bind<Scalars>("tags%5B%5D=a&tags[]=&tags[]=&tags[]=b&numbers[]=&numbers[]=3&tags=c");
        Assert.Equal(["a", "b", "c"], scalars.Tags);
        Assert.Equal([3], scalars.Numbers);
    }

    [Fact]
    public void MapRowsBindTheirKeyAndValueInEitherOrderAndSkipEmptyRows()
    {
        var scalars = Bind<Scalars>("labels[0].key=a&labels[0].value=1&labels[1].key=&labels[1].value=&labels[2].value=3&labels[2].key=c&labels[x]=y");
        Assert.Equal(new Dictionary<string, string> { ["a"] = "1", ["c"] = "3", ["x"] = "y" }, scalars.Labels);
        // [] after a map is still its entry with the empty key.
        Assert.Equal("e", Bind<Scalars>("labels[]=e").Labels[""]);

        var maps = Bind<Maps>("int32_to_string[0].key=7&int32_to_string[0].value=seven&bool_to_enum[0].key=true&bool_to_enum[0].value=COLOR_RED");
        Assert.Equal("seven", maps.Int32ToString[7]);
        Assert.Equal(Color.Red, maps.BoolToEnum[true]);
    }

    [Theory]
    [InlineData("labels[0].value=1", "'labels[0].value' has a value but 'labels[0].key' is empty")]
    [InlineData("labels[0].key=a&labels[0].key=b", "Key 'labels[0].key' has two values")]
    [InlineData("labels[0].key=a&labels[0].value=1&labels[1].key=a&labels[1].value=2", "Key 'labels[a]' has two values")]
    [InlineData("string_value[]=a", "'string_value' is not a repeated scalar, so it has no [] rows")]
    [InlineData("int32_value[0].key=1", "Key 'int32_value[0].key': 'int32_value' is not a map, so it takes no [key]")]
    public void RowMistakesAre400sNamingTheKey(string query, string expected)
    {
        var ex = CodecHelpers.ReadFails(CodecNames.Form, query, Scalars.Descriptor);
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("2024-05-06T07:08", "2024-05-06T07:08:00Z")]
    [InlineData("2024-05-06T07:08:09", "2024-05-06T07:08:09Z")]
    [InlineData("2024-05-06T07:08:09.125", "2024-05-06T07:08:09.125Z")]
    [InlineData("2024-05-06T07:08:09%2B02:00", "2024-05-06T05:08:09Z")]
    public void ATimestampTakesAnHtmlLocalDateTimeAsUtc(string value, string expected)
    {
        Assert.Equal(Timestamp.Parser.ParseJson($"\"{expected}\""), Bind<Scalars>("created=" + value).Created);
    }

    [Fact]
    public void AnEmptyOneofMemberIsUnsetEvenAsAString()
    {
        var choice = Bind<Choice>("text=&number=5&message.name=&after=");
        Assert.Equal(new Choice { Number = 5, After = "" }, choice);
    }

    private static T Bind<T>(string query)
        where T : IMessage<T>, new() => CodecHelpers.Read<T>(CodecNames.Form, query);
}

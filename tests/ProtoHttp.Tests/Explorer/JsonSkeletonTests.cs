using System.Text.Json.Nodes;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using ProtoHttp.AspNetCore.Explorer;
using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Explorer;

/// <summary>The JSON editor's starting point: a skeleton of every field that the JSON parser reads back as the message.</summary>
public class JsonSkeletonTests
{
    private static readonly FileDescriptor[] Files =
        [AllTypesReflection.Descriptor, ProtobufTestMessages.Proto2.TestMessagesProto2Reflection.Descriptor, Northwind.NorthwindReflection.Descriptor];

    public static TheoryData<string> Messages() => [.. Files.SelectMany(file => file.MessageTypes).Select(type => type.FullName)];

    [Theory]
    [MemberData(nameof(Messages))]
    public void EverySkeletonParsesAsItsMessage(string fullName)
    {
        var type = Find(fullName);

        var skeleton = JsonSkeleton.Of(type);

        var parsed = JsonParser.Default.Parse(skeleton, type);
        Assert.Equal(type, parsed.Descriptor);
    }

    [Fact]
    public void RepeatedAndMapFieldsHoldOneElementNestedMessagesAreExpandedAndRecursionEnds()
    {
        var repeated = JsonNode.Parse(JsonSkeleton.Of(Repeated.Descriptor))!;
        Assert.Equal(["name", "value", "child"], repeated["messages"]!.AsArray().Single()!.AsObject().Select(p => p.Key));
        Assert.Equal("0", (string?)repeated["int64s"]![0]);
        Assert.Equal("COLOR_UNSPECIFIED", (string?)repeated["colors"]![0]);

        var maps = JsonNode.Parse(JsonSkeleton.Of(Maps.Descriptor))!;
        Assert.Equal("1970-01-01T00:00:00Z", (string?)maps["stringToTimestamp"]!["key"]);
        Assert.Equal("false", maps["boolToEnum"]!.AsObject().Single().Key);

        var tree = JsonNode.Parse(JsonSkeleton.Of(Tree.Descriptor))!;
        Assert.Empty(tree["next"]!.AsObject());
        Assert.Empty(tree["children"]![0]!.AsObject());
    }

    [Fact]
    public void AOneofStartsWithItsFirstMemberOnly()
    {
        var choice = JsonNode.Parse(JsonSkeleton.Of(Choice.Descriptor))!.AsObject();

        Assert.Equal(["text", "after"], choice.Select(p => p.Key));
    }

    private static MessageDescriptor Find(string fullName) => Files.SelectMany(file => file.MessageTypes).Single(type => type.FullName == fullName);
}

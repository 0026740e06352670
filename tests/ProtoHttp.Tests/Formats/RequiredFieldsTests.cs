using ProtoHttp.Tests.Protos.Proto2;
using ProtobufTestMessages.Proto2;

namespace ProtoHttp.Tests.Formats;

/// <summary>The required-field check on Google's proto2 conformance messages: groups, extensions, message sets.</summary>
public sealed class RequiredFieldsTests
{
    private static readonly ExtensionCatalog Extensions = ExtensionCatalog.FromFiles([TestMessagesProto2Reflection.Descriptor]);

    [Fact]
    public void AMessageWithEveryKindOfFieldButNoRequiredOneIsComplete()
    {
        var message = new TestAllTypesProto2
        {
            Data = new() { GroupInt32 = 1 },
            MultiWordGroupField = new() { GroupInt32 = 4 },
            MessageSetCorrect = new(),
            RecursiveMessage = new() { OptionalInt32 = 2 },
        };
        message.SetExtension(TestMessagesProto2Extensions.ExtensionInt32, 3);

        RequiredFields.Check(message, Extensions);
    }

    [Fact]
    public void AMissingFieldInsideAMessageSetExtensionIsNamedByItsPath()
    {
        // The required sibling's message set: its extensions' messages have required fields.
        var message = new TestAllRequiredTypesProto2.Types.MessageSetCorrect();
        message.SetExtension(
            TestAllRequiredTypesProto2.Types.MessageSetCorrectExtension1.Extensions.MessageSetExtension, new TestAllRequiredTypesProto2.Types.MessageSetCorrectExtension1());
        message.SetExtension(
            TestAllRequiredTypesProto2.Types.MessageSetCorrectExtension2.Extensions.MessageSetExtension, new TestAllRequiredTypesProto2.Types.MessageSetCorrectExtension2 { I = 1 });

        var ex = Assert.Throws<InvalidMessageException>(() => RequiredFields.Check(message, Extensions));

        Assert.Equal(
            "Missing required field '[protobuf_test_messages.proto2.TestAllRequiredTypesProto2.MessageSetCorrectExtension1.message_set_extension].str'.",
            ex.Message);
    }

    [Fact]
    public void MissingFieldsInGroupsAndRecursiveMessagesAreNamedByTheirPaths()
    {
        var message = new TestAllRequiredTypesProto2 { Data = new() { GroupInt32 = 1 }, OptionalRecursiveMessage = new() };

        var ex = Assert.Throws<InvalidMessageException>(() => RequiredFields.Check(message, ExtensionCatalog.Empty));

        Assert.Contains("'data.group_uint32'", ex.Message, StringComparison.Ordinal);
        Assert.Contains("'optional_recursive_message.required_int32'", ex.Message, StringComparison.Ordinal);
        Assert.DoesNotContain("'data.group_int32'", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ExtensionsHoldingMessagesAreWalkedWhetherSetOrNot()
    {
        var extensions = ExtensionCatalog.FromFiles([AllTypesProto2Reflection.Descriptor]);
        var message = new Extendable();
        RequiredFields.Check(message, extensions);

        message.SetExtension(AllTypesProto2Extensions.SingleLegacy, new Legacy());
        message.GetOrInitializeExtension(AllTypesProto2Extensions.RepeatedLegacy).Add([new Legacy { Id = "a" }, new Legacy()]);
        var ex = Assert.Throws<InvalidMessageException>(() => RequiredFields.Check(message, extensions));

        Assert.Equal("Missing required fields: '[protohttp.tests.proto2.single_legacy].id', '[protohttp.tests.proto2.repeated_legacy][1].id'.", ex.Message);
    }
}

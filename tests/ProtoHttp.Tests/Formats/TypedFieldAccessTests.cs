using System.Buffers;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using ProtoHttp.Tests.Protos;
using ProtoHttp.Tests.Protos.Proto2;
using ProtobufTestMessages.Proto2;

namespace ProtoHttp.Tests.Formats;

/// <summary>
/// The typed getters and setters the JSON and XML codecs use under the JIT instead of Google.Protobuf's boxing
/// accessor: found for every number, bool and enum field (protoc's property naming, conformance's odd field names
/// included), refused for a type that is not the field's, and the reason a W1-sized answer allocates nothing per value.
/// </summary>
public class TypedFieldAccessTests
{
    public static TheoryData<string> Files => new()
    {
        AllTypesReflection.Descriptor.Name,
        AllTypesProto2Reflection.Descriptor.Name,
        TestMessagesProto2Reflection.Descriptor.Name,
        Northwind.NorthwindReflection.Descriptor.Name,
    };

    private static readonly FileDescriptor[] Known =
    [
        AllTypesReflection.Descriptor, AllTypesProto2Reflection.Descriptor, TestMessagesProto2Reflection.Descriptor,
        Northwind.NorthwindReflection.Descriptor,
    ];

    [Theory]
    [MemberData(nameof(Files))]
    public void EveryNumberBoolAndEnumFieldGetsATypedGetterAndSetter(string fileName)
    {
        var fields = Known.Single(file => file.Name == fileName).MessageTypes.SelectMany(WithNested)
            .Where(message => message.ClrType is not null)
            .SelectMany(message => message.Fields.InDeclarationOrder())
            .Where(field => !field.IsRepeated && !field.IsMap && ValueType(field) is not null)
            .ToList();

        Assert.NotEmpty(fields);
        var missing = fields.Where(field => !HasTypedAccess(field)).Select(field => field.FullName).ToList();
        Assert.Empty(missing);
    }

    [Fact]
    public void AFieldIsNotServedAsAnotherType()
    {
        var int32 = Scalars.Descriptor.FindFieldByName("int32_value");
        Assert.NotNull(TypedFieldAccess.Getter<int>(int32));
        Assert.Null(TypedFieldAccess.Getter<long>(int32));
        Assert.Null(TypedFieldAccess.Setter<uint>(int32));
        // Strings and messages are references: the accessor does not box them, so they keep it.
        Assert.Null(TypedFieldAccess.Getter<string>(Scalars.Descriptor.FindFieldByName("string_value")));
    }

    [Fact]
    public void TheTypedGetterAndSetterReadAndWriteTheFieldTheyAreFor()
    {
        var message = new Scalars { Int32Value = 5, Sint32Value = 6, Fixed32Value = 9u, BoolValue = true };
        var sint32 = Scalars.Descriptor.FindFieldByName("sint32_value");
        Assert.Equal(6, TypedFieldAccess.Getter<int>(sint32)!(message));
        TypedFieldAccess.Setter<int>(sint32)!(message, -3);
        Assert.Equal(new Scalars { Int32Value = 5, Sint32Value = -3, Fixed32Value = 9u, BoolValue = true }, message);
    }

    [Theory]
    [InlineData(CodecNames.Json)]
    [InlineData(CodecNames.Xml)]
    public void WritingNumbersAllocatesNothingPerValue(string format)
    {
        var message = NorthwindData.All;
        var output = new ArrayBufferWriter<byte>(1 << 20);
        CodecHelpers.Codecs.Codec(format).Write(message, output);

        // The least of three writes: a per-value allocation shows in every one, while a one-off (a shared cache
        // growing because a test running beside this one added to it) shows in one only. CI saw 6,208 B once.
        var allocated = long.MaxValue;
        for (var attempt = 0; attempt < 3; attempt++)
        {
            output.ResetWrittenCount();
            var before = GC.GetAllocatedBytesForCurrentThread();
            CodecHelpers.Codecs.Codec(format).Write(message, output);
            allocated = Math.Min(allocated, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        // Hundreds of ints, floats and enums: boxed through the accessor they took about 24 B each.
        Assert.True(allocated < 1_000, $"{format} allocated {allocated} B writing {output.WrittenCount} B");
    }

    private static IEnumerable<MessageDescriptor> WithNested(MessageDescriptor message) =>
        [message, .. message.NestedTypes.SelectMany(WithNested)];

    private static Type? ValueType(FieldDescriptor field) => field.FieldType switch
    {
        FieldType.Double => typeof(double),
        FieldType.Float => typeof(float),
        FieldType.Int64 or FieldType.SInt64 or FieldType.SFixed64 => typeof(long),
        FieldType.UInt64 or FieldType.Fixed64 => typeof(ulong),
        FieldType.Int32 or FieldType.SInt32 or FieldType.SFixed32 or FieldType.Enum => typeof(int),
        FieldType.UInt32 or FieldType.Fixed32 => typeof(uint),
        FieldType.Bool => typeof(bool),
        _ => null,
    };

    private static bool HasTypedAccess(FieldDescriptor field) => ValueType(field) switch
    {
        var t when t == typeof(double) => TypedFieldAccess.Getter<double>(field) is not null && TypedFieldAccess.Setter<double>(field) is not null,
        var t when t == typeof(float) => TypedFieldAccess.Getter<float>(field) is not null && TypedFieldAccess.Setter<float>(field) is not null,
        var t when t == typeof(long) => TypedFieldAccess.Getter<long>(field) is not null && TypedFieldAccess.Setter<long>(field) is not null,
        var t when t == typeof(ulong) => TypedFieldAccess.Getter<ulong>(field) is not null && TypedFieldAccess.Setter<ulong>(field) is not null,
        var t when t == typeof(int) => TypedFieldAccess.Getter<int>(field) is not null && TypedFieldAccess.Setter<int>(field) is not null,
        var t when t == typeof(uint) => TypedFieldAccess.Getter<uint>(field) is not null && TypedFieldAccess.Setter<uint>(field) is not null,
        _ => TypedFieldAccess.Getter<bool>(field) is not null && TypedFieldAccess.Setter<bool>(field) is not null,
    };
}

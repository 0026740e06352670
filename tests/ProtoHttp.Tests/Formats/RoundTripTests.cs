using System.Text;
using Google.Protobuf;
using Northwind;
using ProtoHttp.Tests.Protos;

namespace ProtoHttp.Tests.Formats;

public class RoundTripTests
{
    public static TheoryData<string> SampleNames => new(AllTypesSamples.All.Keys);

    [Theory]
    [MemberData(nameof(SampleNames))]
    public void EverySampleSurvivesProtobufToJsonToXmlToProtobuf(string name) => AssertRoundTrip(AllTypesSamples.All[name]);

    [Fact]
    public void AllNorthwindOrdersSurviveProtobufToJsonToXmlToProtobuf()
    {
        var orders = NorthwindData.All;
        Assert.Equal(830, orders.Orders.Count);
        Assert.Equal(2155, orders.Orders.Sum(order => order.Lines.Count));
        AssertRoundTrip(orders);
    }

    [Fact]
    public void EachNorthwindOrderSurvivesAlone()
    {
        foreach (var order in NorthwindData.All.Orders)
        {
            AssertRoundTrip(order);
        }
    }

    [Fact]
    public void AnySurvivesXmlAsItsTwoFields()
    {
        var message = new WithAny { Any = Google.Protobuf.WellKnownTypes.Any.Pack(new Nested { Name = "packed" }) };
        var xml = CodecHelpers.Write(CodecNames.Xml, message);
        var back = CodecHelpers.Read(CodecNames.Xml, xml, WithAny.Descriptor);
        Assert.Equal(message.ToByteArray(), back.ToByteArray());
    }

    // A second opinion from the framework's strict reader, so the codec's own reader cannot hide a flaw of its writer.
    private static void AssertWellFormed(byte[] xml)
    {
        using var reader = System.Xml.XmlReader.Create(new MemoryStream(xml));
        while (reader.Read())
        {
        }
    }

    private static void AssertRoundTrip(IMessage original)
    {
        var descriptor = original.Descriptor;
        var bytes = original.ToByteArray();
        var fromProtobuf = CodecHelpers.Read(CodecNames.Protobuf, bytes, descriptor);
        var json = CodecHelpers.Write(CodecNames.Json, fromProtobuf);
        var fromJson = CodecHelpers.Read(CodecNames.Json, json, descriptor);
        var xml = CodecHelpers.Write(CodecNames.Xml, fromJson);
        AssertWellFormed(xml);
        var fromXml = CodecHelpers.Read(CodecNames.Xml, xml, descriptor);
        var result = CodecHelpers.Write(CodecNames.Protobuf, fromXml);
        if (!bytes.AsSpan().SequenceEqual(result))
        {
            Assert.Fail($"Round trip changed the message.\nJSON: {Encoding.UTF8.GetString(json)}\nXML: {Encoding.UTF8.GetString(xml)}\n"
                + $"before: {original}\nafter:  {fromXml}");
        }
    }
}

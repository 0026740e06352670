using System.Runtime.Serialization;
using System.Text;
using System.Text.Json;
using System.Xml.Serialization;
using Google.Protobuf;
using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Dtos;

namespace ProtoHttp.Benchmarks;

/// <summary>BENCHMARKS.md figure 1: the bytes each format puts on the wire for W1 (and W2's 1,000 records).</summary>
internal static class WireSizes
{
    public static void Write(string outputFile)
    {
        var orders = Workload.LoadOrders();
        var records = RecordFactory.Create(RecordCodecBenchmarks.Count);
        var sizes = new Dictionary<string, Dictionary<string, long>>
        {
            ["w1"] = Measure(orders, DtoMapper.ToDto(orders)),
            ["w2_1000"] = Measure(records, DtoMapper.ToDto(records)),
        };

        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(outputFile))!);
        File.WriteAllText(outputFile, JsonSerializer.Serialize(sizes, JsonOptions.Indented));
        Console.WriteLine("W1 sizes: " + string.Join(", ", sizes["w1"].Select(s => $"{s.Key} {s.Value:N0}")));
    }

    private static Dictionary<string, long> Measure<TDto>(IMessage message, TDto dto)
    {
        var sizes = new Dictionary<string, long>
        {
            ["protobuf"] = message.CalculateSize(),
            ["json"] = Codecs.Write(Codecs.Json, message).Length,
        };
        if (Codecs.Xml is { } xml)
        {
            sizes["xml"] = Codecs.Write(xml, message).Length;
        }

        sizes["google_json_formatter"] = Encoding.UTF8.GetByteCount(Codecs.GoogleFormatter.Format(message));
        using (var stream = new MemoryStream())
        {
            new DataContractSerializer(typeof(TDto)).WriteObject(stream, dto);
            sizes["data_contract_serializer"] = stream.Length;
        }

        using (var stream = new MemoryStream())
        {
            new XmlSerializer(typeof(TDto)).Serialize(stream, dto);
            sizes["xml_serializer"] = stream.Length;
        }

        sizes["system_text_json"] = JsonSerializer.SerializeToUtf8Bytes(dto, JsonOptions.Web).Length;
        return sizes;
    }
}

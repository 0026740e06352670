using System.Buffers.Binary;
using System.Text.Json;
using Google.Protobuf;
using ProtoHttp.Bench.Workloads;
using ProtoHttp.Bench.Workloads.Dtos;
using ProtoService;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// Writes the request bodies the load script sends, made by the codecs under test so every peer gets the same
/// message: <c>search.*</c> for W3 and <c>echo-{N}.*</c> for W2; <c>.grpc</c> files carry gRPC's 5-byte frame.
/// </summary>
internal static class RequestBodies
{
    public static void Write(string folder)
    {
        Directory.CreateDirectory(folder);
        var search = new SearchRequest { Query = Workload.SearchQuery, ResultPerPage = Workload.SearchPageSize };
        WriteAll(folder, "search", search, new SearchRequestDto { Query = Workload.SearchQuery, ResultPerPage = Workload.SearchPageSize });
        File.WriteAllText(Path.Combine(folder, "search.form"), Workload.SearchForm);
        foreach (var count in RecordFactory.Counts)
        {
            var records = RecordFactory.Create(count);
            WriteAll(folder, $"echo-{count}", records, DtoMapper.ToDto(records));
        }

        Console.WriteLine($"request bodies written to {folder} (XML: {(Codecs.HasXml ? "yes" : "no codec yet")})");
    }

    private static void WriteAll<TDto>(string folder, string name, IMessage message, TDto dto)
    {
        File.WriteAllBytes(Path.Combine(folder, name + ".pb"), message.ToByteArray());
        File.WriteAllBytes(Path.Combine(folder, name + ".json"), Codecs.Write(Codecs.Json, message));
        if (Codecs.Xml is { } xml)
        {
            File.WriteAllBytes(Path.Combine(folder, name + ".xml"), Codecs.Write(xml, message));
        }

        File.WriteAllBytes(Path.Combine(folder, name + ".stj.json"), JsonSerializer.SerializeToUtf8Bytes(dto, JsonOptions.Web));
        var payload = message.ToByteArray();
        var framed = new byte[5 + payload.Length];
        BinaryPrimitives.WriteUInt32BigEndian(framed.AsSpan(1), (uint)payload.Length); // byte 0: not compressed
        payload.CopyTo(framed, 5);
        File.WriteAllBytes(Path.Combine(folder, name + ".grpc"), framed);
    }
}

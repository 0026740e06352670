using System.IO.Compression;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>What Connect clients put on the wire beside messages: gzip, and rich errors' <c>google.rpc.Status</c>.</summary>
public static class ConnectWire
{
    /// <summary>Gzipped at the smallest size, so the bombs stay far under the bodies' limits.</summary>
    public static byte[] Gzip(byte[] data)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.SmallestSize))
        {
            gzip.Write(data);
        }

        return output.ToArray();
    }

    public static byte[] Gunzip(byte[] data)
    {
        using var input = new GZipStream(new MemoryStream(data), CompressionMode.Decompress);
        using var output = new MemoryStream();
        input.CopyTo(output);
        return output.ToArray();
    }

    /// <summary>A <c>google.rpc.Status</c> written field by field (code 1, message 2, details 3), as grpc-dotnet sends it.</summary>
    public static ByteString RpcStatus(int code, string message, Any detail)
    {
        using var stream = new MemoryStream();
        var output = new CodedOutputStream(stream);
        output.WriteTag(1, WireFormat.WireType.Varint);
        output.WriteInt32(code);
        output.WriteTag(2, WireFormat.WireType.LengthDelimited);
        output.WriteString(message);
        output.WriteTag(3, WireFormat.WireType.LengthDelimited);
        output.WriteMessage(detail);
        output.Flush();
        return ByteString.CopyFrom(stream.ToArray());
    }
}

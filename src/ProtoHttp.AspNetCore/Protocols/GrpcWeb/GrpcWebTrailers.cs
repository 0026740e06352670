using System.Buffers;
using System.Text;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// gRPC-Web's trailers frame (docs/protocol.md, gRPC-Web): flag 0x80, a 4-byte big-endian length, then the trailers as
/// an HTTP/1 header block without the closing empty line, <c>name: value\r\n</c> each, names in lower case:
/// <c>grpc-status</c>, <c>grpc-message</c> (percent-encoded, as gRPC says) unless empty, then the call's trailers,
/// binary ones (<c>-bin</c>, <c>grpc-status-details-bin</c> among them) in base64.
/// </summary>
internal static class GrpcWebTrailers
{
    /// <summary>The flag of the trailers frame: its most significant bit set.</summary>
    public const byte Flag = 0x80;

    public const string StatusName = "grpc-status";
    public const string MessageName = "grpc-message";

    /// <summary>Writes the whole trailers frame into <paramref name="output"/>.</summary>
    public static void Write(IBufferWriter<byte> output, StatusCode code, string message, Metadata? trailers)
    {
        var block = new StringBuilder(64);
        foreach (var (name, value) in Lines(code, message, trailers))
        {
            block.Append(name).Append(": ").Append(value).Append("\r\n");
        }

        var text = block.ToString();
        var length = Encoding.ASCII.GetByteCount(text);
        var span = output.GetSpan(Envelope.HeaderLength + length);
        Envelope.WriteHeader(span, Flag, length);
        Encoding.ASCII.GetBytes(text, span[Envelope.HeaderLength..]);
        output.Advance(Envelope.HeaderLength + length);
    }

    /// <summary>
    /// gRPC's encoding of <c>grpc-message</c>: the UTF-8 bytes, each outside printable ASCII (and <c>%</c> itself) as
    /// <c>%XX</c>, so any text survives a header line.
    /// </summary>
    public static string PercentEncode(string message)
    {
        if (!message.AsSpan().ContainsAnyExceptInRange(' ', '~') && !message.Contains('%'))
        {
            return message;
        }

        var encoded = new StringBuilder(message.Length + 16);
        foreach (var b in Encoding.UTF8.GetBytes(message))
        {
            if (b is < 0x20 or > 0x7E or (byte)'%')
            {
                encoded.Append('%').Append(b.ToString("X2", System.Globalization.CultureInfo.InvariantCulture));
            }
            else
            {
                encoded.Append((char)b);
            }
        }

        return encoded.ToString();
    }

    /// <summary>Sets the same lines as the response's HTTP trailers, for grpc-dotnet's middleware to frame.</summary>
    public static void AddTo(HttpResponse response, StatusCode code, string message, Metadata? trailers)
    {
        foreach (var (name, value) in Lines(code, message, trailers))
        {
            response.AppendTrailer(name, value);
        }
    }

    private static IEnumerable<(string Name, string Value)> Lines(StatusCode code, string message, Metadata? trailers)
    {
        yield return (StatusName, ((int)code).ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (message.Length > 0)
        {
            yield return (MessageName, PercentEncode(message));
        }

        foreach (var entry in trailers ?? [])
        {
            if (entry.Key is StatusName or MessageName)
            {
                continue; // The call's own status says these; a service's copy would contradict it.
            }

            var value = entry.IsBinary ? Convert.ToBase64String(entry.ValueBytes) : entry.Value;
            if (!value.AsSpan().ContainsAnyExceptInRange(' ', '~'))
            {
                // As for headers: a text value gRPC does not allow (a line break would end the line) is left out.
                yield return (entry.Key, value);
            }
        }
    }
}

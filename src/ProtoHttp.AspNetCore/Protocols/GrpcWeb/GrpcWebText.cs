using System.Buffers;
using System.Buffers.Text;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// The base64 of <c>application/grpc-web-text</c>. A body may be several base64 chunks one after the other, each padded
/// where its sender flushed (PROTOCOL-WEB.md lets both sides do that), so a request is decoded chunk by chunk; a
/// response encodes each write on its own, padded, which every gRPC-Web client reads.
/// </summary>
internal static class GrpcWebText
{
    private static readonly SearchValues<byte> Whitespace = SearchValues.Create(" \t\r\n"u8);

    /// <summary>The base64 length of <paramref name="bytes"/> bytes, padded.</summary>
    public static long EncodedLength(long bytes) => (bytes + 2) / 3 * 4;

    /// <summary>
    /// Decodes a text body: padded chunks back to back, the last one perhaps unpadded; line breaks and spaces (base64 as
    /// the <c>base64</c> tool wraps it) are skipped.
    /// </summary>
    /// <exception cref="CallRejectedException">The body is not base64 (<c>INVALID_ARGUMENT</c>).</exception>
    public static byte[] Decode(ReadOnlySequence<byte> text)
    {
        var input = text.ToArray();
        if (input.AsSpan().IndexOfAny(Whitespace) >= 0)
        {
            input = [.. input.Where(b => !Whitespace.Contains(b))];
        }

        var output = new byte[(input.Length + 3) / 4 * 3];
        int read = 0, written = 0;
        while (read < input.Length)
        {
            // A chunk ends with the first group of four that holds padding, or with the body.
            var end = read;
            while (end + 4 <= input.Length && input[end + 3] != (byte)'=')
            {
                end += 4;
            }

            end = Math.Min(end + 4, input.Length);
            var chunk = input.AsSpan(read, end - read);
            if (Base64.DecodeFromUtf8(chunk, output.AsSpan(written), out var consumed, out var decoded) != OperationStatus.Done
                || consumed != chunk.Length)
            {
                if (chunk.Length % 4 == 0 || !TryDecodeUnpadded(chunk, output.AsSpan(written), out decoded))
                {
                    throw CallRejectedException.BadRequest(
                        $"The {GrpcWebMediaTypes.Text} body is not base64: the bytes from offset {read} on cannot be decoded.");
                }
            }

            written += decoded;
            read = end;
        }

        return output.AsSpan(0, written).ToArray();
    }

    /// <summary>Writes <paramref name="bytes"/> to <paramref name="output"/> as padded base64.</summary>
    public static void Encode(ReadOnlySpan<byte> bytes, IBufferWriter<byte> output)
    {
        var length = (int)EncodedLength(bytes.Length);
        var span = output.GetSpan(length);
        Base64.EncodeToUtf8(bytes, span, out _, out var written);
        output.Advance(written);
    }

    // A last chunk without its padding (2 or 3 characters over a group of four): padded here, then decoded.
    private static bool TryDecodeUnpadded(ReadOnlySpan<byte> chunk, Span<byte> output, out int decoded)
    {
        decoded = 0;
        if (chunk.Length % 4 == 1)
        {
            return false;
        }

        Span<byte> padded = new byte[(chunk.Length + 3) / 4 * 4];
        chunk.CopyTo(padded);
        padded[chunk.Length..].Fill((byte)'=');
        return Base64.DecodeFromUtf8(padded, output, out var consumed, out decoded) == OperationStatus.Done && consumed == padded.Length;
    }
}

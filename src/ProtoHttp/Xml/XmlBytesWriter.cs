using System.Buffers.Text;
using Google.Protobuf;

namespace ProtoHttp.Xml;

/// <summary>bytes: standard padded base64, which needs no escaping.</summary>
internal sealed class XmlBytesWriter : XmlValueWriter<ByteString>
{
    // A multiple of 3 bytes, so every chunk but the last encodes without padding.
    private const int ChunkBytes = 3 * 1024;

    public static XmlBytesWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, ByteString value)
    {
        var rest = value.Span;
        do
        {
            var chunk = rest[..Math.Min(rest.Length, ChunkBytes)];
            Base64.EncodeToUtf8(chunk, output.Reserve(Base64.GetMaxEncodedToUtf8Length(chunk.Length)), out _, out var written);
            output.Advance(written);
            rest = rest[chunk.Length..];
        }
        while (!rest.IsEmpty);
    }

    public override bool IsDefault(ByteString value) => value.IsEmpty;
}

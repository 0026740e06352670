using System.Buffers.Text;
using Google.Protobuf;

namespace ProtoHttp.Json;

/// <summary>bytes: standard padded base64, quoted (nothing in base64 needs escaping).</summary>
internal sealed class JsonBytesWriter : JsonValueWriter<ByteString>
{
    public static JsonBytesWriter Instance { get; } = new();

    public override void Write(ref Utf8Output output, ByteString value)
    {
        var length = Base64.GetMaxEncodedToUtf8Length(value.Length);
        var span = output.Reserve(length + 2);
        span[0] = (byte)'"';
        Base64.EncodeToUtf8(value.Span, span[1..], out _, out var written);
        span[written + 1] = (byte)'"';
        output.Advance(written + 2);
    }

    public override bool IsDefault(ByteString value) => value.Length == 0;
}

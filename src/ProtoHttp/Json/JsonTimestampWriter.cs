using Google.Protobuf.WellKnownTypes;

namespace ProtoHttp.Json;

/// <summary>
/// Timestamp as JsonFormatter writes it: quoted RFC 3339 in UTC with a Z and 0, 3, 6 or 9 fraction digits. Natively,
/// since Northwind orders carry three each; out-of-range values go to JsonFormatter for its exception.
/// </summary>
internal sealed class JsonTimestampWriter(JsonMessageWriter owner) : JsonValueWriter<Timestamp>
{
    public override void Write(ref Utf8Output output, Timestamp value)
    {
        var span = output.Reserve(TimestampText.MaxUtf8Length + 2);
        if (!TimestampText.TryFormat(value, span[1..], out var length))
        {
            owner.WriteDelegated(ref output, value);
            return;
        }

        span[0] = (byte)'"';
        span[length + 1] = (byte)'"';
        output.Advance(length + 2);
    }
}

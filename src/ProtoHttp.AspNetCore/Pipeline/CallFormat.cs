namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// How a call's request is read and its unary answer written: the pair a protocol chooses when it accepts the call.
/// A route has few such pairs (its readers by its answer types), so each is made once and kept by the route
/// (<see cref="CallFormats"/>): the call holds one reference, not two, which keeps the call's one object within
/// BENCHMARKS.md's 100 bytes per small call.
/// </summary>
internal sealed class CallFormat(MessageCodec? reader, WritableMediaType? responseType)
{
    /// <summary>The reader of the request body (or of the envelopes' payloads); null for an empty request.</summary>
    public MessageCodec? Reader { get; } = reader;

    /// <summary>The type a unary answer goes out in; null for a stream, or before the protocol chose it.</summary>
    public WritableMediaType? ResponseType { get; } = responseType;
}

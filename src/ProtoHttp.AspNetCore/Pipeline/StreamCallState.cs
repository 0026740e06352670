using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// What only a streaming call has, kept apart so a unary call never allocates it: the framing of its answer, the
/// envelopes of its request, and its open streams. Reached through <see cref="ProtoHttpServerCallContext"/>'s properties.
/// </summary>
internal sealed class StreamCallState
{
    public StreamMediaType? ResponseStreamType { get; set; }

    public StreamMediaType? RequestEnvelope { get; set; }

    public bool RequestCompressed { get; set; }

    public StreamResponseWriter? ResponseStream { get; set; }

    public IRequestStream? RequestStream { get; set; }
}

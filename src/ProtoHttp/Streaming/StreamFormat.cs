namespace ProtoHttp.Streaming;

/// <summary>How the messages of a streaming call are framed in one HTTP body (docs/protocol.md section 10).</summary>
public enum StreamFormat
{
    /// <summary>Server-Sent Events: one default event per message, its JSON, then an <c>end</c> event.</summary>
    Events,

    /// <summary>NDJSON: one <c>{"result": …}</c> line per message; a failure ends with an <c>{"error": …}</c> line.</summary>
    Lines,

    /// <summary>Connect streaming envelopes holding messages in a codec that can be enveloped (<c>application/connect+{name}</c>).</summary>
    Envelopes,
}

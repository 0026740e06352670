using Grpc.Core;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>How a streaming call ended, for its last record: the status, its text, and the trailers.</summary>
internal readonly record struct StreamOutcome(StatusCode Code, string Text, Metadata? Trailers)
{
    public static StreamOutcome Ok(Metadata? trailers) => new(StatusCode.OK, string.Empty, trailers);
}

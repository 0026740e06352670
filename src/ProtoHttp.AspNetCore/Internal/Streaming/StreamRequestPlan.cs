using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>How a streaming call's request is read, decided before anything is read.</summary>
/// <param name="IsGet">The one request message comes from the query string.</param>
/// <param name="Reader">The reader of the body (or of the envelopes' payloads); <see langword="null"/> for an empty request.</param>
/// <param name="Envelope">The envelope stream the body is in, when it is in envelopes.</param>
/// <param name="Own">The stream the response takes when <c>Accept</c> names none.</param>
/// <param name="Gzip">Envelopes flagged compressed hold gzip (Connect's <c>Connect-Content-Encoding: gzip</c>).</param>
/// <param name="Connect">The call came in the Connect protocol, whose request faults have Connect's own codes.</param>
internal readonly record struct StreamRequestPlan(
    bool IsGet, MessageCodec? Reader, StreamMediaType? Envelope, StreamMediaType Own, bool Gzip = false, bool Connect = false);

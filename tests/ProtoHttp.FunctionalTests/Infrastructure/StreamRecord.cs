namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>One record of a response stream, as a client reads it: a message, or the last record with the outcome.</summary>
public sealed record StreamRecord<T>(T? Message, StreamEnd? End)
    where T : class;

/// <summary>
/// How a stream ended: the status name (upper case, as ErrorResult spells it, whatever the format), the error text and
/// the trailers.
/// </summary>
public sealed record StreamEnd(string Code, string? ErrorText, IReadOnlyDictionary<string, string[]> Metadata);

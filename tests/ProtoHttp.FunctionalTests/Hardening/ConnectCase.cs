namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>One Connect request of the malformed-input suite: a POST body or a GET query, and how it was made.</summary>
public sealed record ConnectCase(string Verb, string Target, string? ContentType, string? ContentEncoding, byte[]? Body, string Mutation)
{
    /// <summary>Where the test knows the answer without the server's codecs (<see cref="ConnectDue"/>); null for a blind mutation.</summary>
    public ConnectDue? Due { get; init; }
}

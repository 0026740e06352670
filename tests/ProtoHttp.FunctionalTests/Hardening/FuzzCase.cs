namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>One malformed (or accidentally valid) request: a POST body or a GET query string, and how it was made.</summary>
public sealed record FuzzCase(string Verb, string Target, string? ContentType, string? Accept, byte[]? Body, string Mutation)
{
    /// <summary>What the answer must be, where the case was generated knowing it (<see cref="EchoOracle"/>); null for a blind mutation.</summary>
    public EchoExpectation? Expectation { get; init; }

    /// <summary>For a protobuf envelope body: what the test's own reading of it finds (<see cref="EnvelopeVerdict"/>).</summary>
    public EnvelopeVerdict? Envelopes { get; init; }

    public static FuzzCase Post(string path, string contentType, byte[] body, string mutation, string? accept = null) =>
        new("POST", path, contentType, accept, body, mutation);

    public static FuzzCase Get(string path, string query, string mutation, string? accept = null) =>
        new("GET", query.Length == 0 ? path : $"{path}?{query}", null, accept, null, mutation);
}

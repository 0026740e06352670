namespace ProtoHttp;

/// <summary>
/// A request body or query string that is not a valid message: always the client's fault (400), and its
/// message says exactly what was wrong, so it may be shown to the client.
/// </summary>
public sealed class InvalidMessageException : Exception
{
    /// <summary>Creates the exception with a sentence naming the problem.</summary>
    public InvalidMessageException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with a sentence naming the problem and the parser's own error.</summary>
    public InvalidMessageException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}

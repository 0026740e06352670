namespace ProtoHttp;

/// <summary>
/// A valid message the chosen response format cannot represent (a string XML 1.0 cannot carry): the server
/// answers 406 in JSON, naming the field, so the client can ask for a format that carries it.
/// </summary>
public sealed class UnwritableMessageException : Exception
{
    /// <summary>Creates the exception with a sentence naming the field and the value the format cannot carry.</summary>
    public UnwritableMessageException(string message)
        : base(message)
    {
    }
}

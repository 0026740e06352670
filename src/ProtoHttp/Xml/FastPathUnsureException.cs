namespace ProtoHttp.Xml;

/// <summary>
/// Thrown by <see cref="XmlMessageReader.TryReadIntegerFast{T}"/> when the fast way may not give the protocol's answer:
/// <see cref="XmlMessageReader.Read"/> then reads the body again the exact way. Never leaves the reader.
/// </summary>
internal sealed class FastPathUnsureException : Exception
{
    public static FastPathUnsureException Instance { get; } = new();

    private FastPathUnsureException()
        : base("The XML body is read again the exact way.")
    {
    }
}

namespace ProtoHttp;

/// <summary>
/// A text value that does not parse as its field's type. Thrown by <see cref="FieldText"/> without knowing
/// where the value came from; the XML and form readers catch it and name the element or key.
/// </summary>
internal sealed class ValueFormatException : Exception
{
    public ValueFormatException(string message)
        : base(message)
    {
    }

    public ValueFormatException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    public ValueFormatException()
    {
    }
}

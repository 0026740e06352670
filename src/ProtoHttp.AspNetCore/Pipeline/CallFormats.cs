namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The <see cref="CallFormat"/> pairs a route's calls have used, made on first use and then shared by every call
/// with the same reader and answer type. A route has at most its codecs times its answer types of them, so a list
/// searched by reference is enough; it is copied on write, so readers need no lock (a race makes a pair twice, and
/// either is right).
/// </summary>
internal sealed class CallFormats
{
    private CallFormat[] _known = [];

    public CallFormat Of(MessageCodec? reader, WritableMediaType? responseType)
    {
        var known = _known;
        foreach (var format in known)
        {
            if (ReferenceEquals(format.Reader, reader) && ReferenceEquals(format.ResponseType, responseType))
            {
                return format;
            }
        }

        var added = new CallFormat(reader, responseType);
        _known = [.. known, added];
        return added;
    }
}

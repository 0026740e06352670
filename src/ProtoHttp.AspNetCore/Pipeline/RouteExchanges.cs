namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The <see cref="UnaryExchange"/>s a route's calls have used, made on first use and then shared by every call with
/// the same reader and answer type. A route has at most its codecs times its answer types of them, so a list searched
/// by reference is enough; it is copied on write, so readers need no lock (a race makes one twice, and either is right).
/// </summary>
internal sealed class RouteExchanges
{
    private UnaryExchange[] _known = [];

    /// <summary>The route's exchange for <paramref name="reader"/> and <paramref name="responseType"/>, made by <paramref name="make"/> the first time.</summary>
    public UnaryExchange Of(MessageCodec? reader, WritableMediaType? responseType, Func<MessageCodec?, WritableMediaType?, UnaryExchange> make)
    {
        var known = _known;
        foreach (var exchange in known)
        {
            if (ReferenceEquals(exchange.RequestReader, reader) && ReferenceEquals(exchange.ResponseType, responseType))
            {
                return exchange;
            }
        }

        var added = make(reader, responseType);
        _known = [.. known, added];
        return added;
    }
}

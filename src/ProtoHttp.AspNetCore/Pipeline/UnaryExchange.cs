namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The exchange of a unary call that keeps nothing of its own: how the request is read and in which type the answer
/// goes out, everything else being the call's (<see cref="ProtoHttpServerCallContext"/>). A route has few such pairs
/// (its readers by its answer types), so each is made once and shared by the route's calls
/// (<see cref="CallRoute.Exchanges"/>): the call holds one reference and allocates nothing for it, which keeps the
/// call's one object within BENCHMARKS.md's 100 bytes per small call.
/// </summary>
internal abstract class UnaryExchange(MessageCodec? reader, WritableMediaType? responseType) : CallExchange
{
    public override MessageCodec? RequestReader => reader;

    public override WritableMediaType? ResponseType => responseType;
}

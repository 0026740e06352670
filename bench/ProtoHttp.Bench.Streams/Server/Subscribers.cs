namespace ProtoHttp.Bench.Streams.Server;

/// <summary>How many subscribers a peer holds now (streams, hub connections, echo calls), for its <c>/stats</c>.</summary>
public class Subscribers
{
    private int _count;

    public int Count => Volatile.Read(ref _count);

    public void Joined() => Interlocked.Increment(ref _count);

    public void Left() => Interlocked.Decrement(ref _count);
}

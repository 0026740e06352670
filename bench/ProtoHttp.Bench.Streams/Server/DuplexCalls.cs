namespace ProtoHttp.Bench.Streams.Server;

/// <summary>How many W7 echo calls the server holds open, whichever peer serves them: the memory figure's divisor, checked.</summary>
public sealed class DuplexCalls
{
    private int _open;

    public int Open => Volatile.Read(ref _open);

    public void Opened() => Interlocked.Increment(ref _open);

    public void Closed() => Interlocked.Decrement(ref _open);
}

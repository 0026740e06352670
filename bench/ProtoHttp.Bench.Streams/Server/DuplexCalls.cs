namespace ProtoHttp.Bench.Streams.Server;

/// <summary>How many W7 echo calls the server holds open, whichever peer serves them: the memory figure's divisor, checked.</summary>
public sealed class DuplexCalls : Subscribers;

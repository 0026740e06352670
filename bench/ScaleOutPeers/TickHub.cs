using ProtoHttp.Bench.Streams.Server;

namespace ScaleOutPeers;

/// <summary>SignalR's side of W6: every connected client gets the <c>tick</c> broadcast, through the Redis backplane.</summary>
public sealed class TickHub(Subscribers subscribers) : CountedHub(subscribers);

using System.Runtime.CompilerServices;
using Microsoft.AspNetCore.SignalR;
using ProtoHttp.Bench.Streams.Duplex;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>
/// SignalR's side of W7: <c>Echo</c> streams both ways (the client streams its requests in, the hub streams an answer
/// out for each), the hub's counterpart of one bidirectional call.
/// </summary>
public sealed class DuplexHub(DuplexCalls calls) : Hub
{
    public async IAsyncEnumerable<SearchResponseDto> Echo(IAsyncEnumerable<SearchRequestDto> requests, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        calls.Joined();
        try
        {
            await foreach (var request in requests.WithCancellation(cancellationToken))
            {
                yield return DuplexWorkload.Answer(request);
            }
        }
        finally
        {
            calls.Left();
        }
    }
}

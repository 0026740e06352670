using Grpc.Core;
using ProtoHttp.Bench.Streams.Duplex;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>W7's echo as ProtoHttp (over WebSocket) and Grpc.AspNetCore (bidirectional over h2c) both serve it.</summary>
public sealed class DuplexBenchService(DuplexCalls calls) : DuplexService.DuplexServiceBase
{
    public override async Task Echo(IAsyncStreamReader<SearchRequest> requestStream, IServerStreamWriter<SearchResponse> responseStream, ServerCallContext context)
    {
        calls.Joined();
        try
        {
            while (await requestStream.MoveNext(CancellationToken.None))
            {
                await responseStream.WriteAsync(DuplexWorkload.Answer(requestStream.Current));
            }
        }
        finally
        {
            calls.Left();
        }
    }
}

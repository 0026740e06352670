using Grpc.Core;
using ProtoHttp.Bench.Streams.Duplex;

namespace StreamLoad.Duplex;

/// <summary>
/// The echo through the generated client (<c>client.Echo()</c>, a duplex streaming call): over Grpc.Net.Client's
/// channel (bidirectional over h2c), or over ProtoHttp's typed client with its WebSocket transport.
/// </summary>
internal sealed class GeneratedClientCall(DuplexService.DuplexServiceClient client) : EchoCall
{
    private AsyncDuplexStreamingCall<SearchRequest, SearchResponse>? _call;

    private AsyncDuplexStreamingCall<SearchRequest, SearchResponse> Call => _call ?? throw new InvalidOperationException("Not open.");

    public override async Task OpenAsync(CancellationToken cancellationToken)
    {
        _call = client.Echo(cancellationToken: cancellationToken);
        await RoundTripAsync(cancellationToken);
    }

    public override async ValueTask RoundTripAsync(CancellationToken cancellationToken)
    {
        var request = DuplexWorkload.Request;
        // No token per write: ProtoHttp's typed client refuses a cancellable one (the call's own token cancels it).
        await Call.RequestStream.WriteAsync(request, CancellationToken.None);
        if (!await Call.ResponseStream.MoveNext(cancellationToken))
        {
            throw new InvalidDataException($"The call ended before answering: {Call.GetStatus()}.");
        }

        var answer = Call.ResponseStream.Current;
        CheckAnswer(answer.Result.Count, answer.Result.Count > 0 ? answer.Result[0].Title : "", request.Query);
    }

    public override async Task CompleteAsync(CancellationToken cancellationToken)
    {
        await Call.RequestStream.CompleteAsync();
        if (await Call.ResponseStream.MoveNext(cancellationToken))
        {
            throw new InvalidDataException("An answer came after the half-close with no request.");
        }

        if (Call.GetStatus().StatusCode != StatusCode.OK)
        {
            throw new InvalidDataException($"The call ended with {Call.GetStatus()}.");
        }
    }

    public override ValueTask DisposeAsync()
    {
        _call?.Dispose();
        return ValueTask.CompletedTask;
    }
}

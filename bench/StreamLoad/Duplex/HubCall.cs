using System.Threading.Channels;
using Microsoft.AspNetCore.SignalR.Client;
using ProtoHttp.Bench.Streams.Duplex;

namespace StreamLoad.Duplex;

/// <summary>
/// The echo over a SignalR hub connection (WebSockets, JSON or MessagePack): <c>StreamAsync("Echo", requests)</c>, the
/// requests streamed in from a channel and the answers streamed out, SignalR's one call streaming both ways.
/// </summary>
internal sealed class HubCall(HubConnection hub) : EchoCall
{
    private readonly Channel<SearchRequestDto> _requests = Channel.CreateBounded<SearchRequestDto>(1);
    private IAsyncEnumerator<SearchResponseDto>? _answers;

    private IAsyncEnumerator<SearchResponseDto> Answers => _answers ?? throw new InvalidOperationException("Not open.");

    public override async Task OpenAsync(CancellationToken cancellationToken)
    {
        await hub.StartAsync(cancellationToken);
        _answers = hub.StreamAsync<SearchResponseDto>("Echo", _requests.Reader, CancellationToken.None).GetAsyncEnumerator(CancellationToken.None);
        await RoundTripAsync(cancellationToken);
    }

    public override async ValueTask RoundTripAsync(CancellationToken cancellationToken)
    {
        var request = DuplexWorkload.RequestDto;
        await _requests.Writer.WriteAsync(request, cancellationToken);
        if (!await Answers.MoveNextAsync())
        {
            throw new InvalidDataException("The hub's stream ended before answering.");
        }

        var answer = Answers.Current;
        CheckAnswer(answer.Result.Length, answer.Result.Length > 0 ? answer.Result[0].Title : "", request.Query);
    }

    public override async Task CompleteAsync(CancellationToken cancellationToken)
    {
        _requests.Writer.Complete();
        if (await Answers.MoveNextAsync())
        {
            throw new InvalidDataException("An answer came after the request stream ended.");
        }

        await hub.StopAsync(cancellationToken);
    }

    public override async ValueTask DisposeAsync()
    {
        if (_answers is not null)
        {
            await _answers.DisposeAsync();
        }

        await hub.DisposeAsync();
    }
}

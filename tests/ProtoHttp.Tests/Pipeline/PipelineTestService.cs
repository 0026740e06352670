using Grpc.Core;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>
/// The service the pipeline's unit tests call. Its unary answer (and the count and text a server stream repeats) is
/// what the test's <see cref="PipelineBehavior"/> says, so a test can make the service answer, throw, set a status or
/// trailers, or outlive its deadline.
/// </summary>
public sealed class PipelineTestService(PipelineBehavior behavior) : PipelineService.PipelineServiceBase
{
    public override Task<Pong> Echo(Ping request, ServerCallContext context) => behavior.AnswerCounted(request, context);

    public override async Task Repeat(Ping request, IServerStreamWriter<Pong> responseStream, ServerCallContext context)
    {
        var pong = await behavior.AnswerCounted(request, context);
        for (var i = 0; i < pong.Count; i++)
        {
            await responseStream.WriteAsync(new Pong { Text = pong.Text, Count = i });
        }

        if (behavior.FailAfterStream is { } failure)
        {
            throw failure;
        }
    }

    public override async Task<Pong> Count(IAsyncStreamReader<Ping> requestStream, ServerCallContext context)
    {
        var count = 0;
        var text = "";
        await foreach (var ping in requestStream.ReadAllAsync())
        {
            count++;
            text += ping.Text;
        }

        return new Pong { Text = text, Count = count };
    }

    public override async Task Chat(IAsyncStreamReader<Ping> requestStream, IServerStreamWriter<Pong> responseStream, ServerCallContext context)
    {
        await foreach (var ping in requestStream.ReadAllAsync())
        {
            await responseStream.WriteAsync(new Pong { Text = ping.Text });
        }
    }
}

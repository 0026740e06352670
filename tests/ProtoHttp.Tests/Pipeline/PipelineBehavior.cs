using Grpc.Core;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>What <see cref="PipelineTestService"/> does in one test; registered in that test's own services.</summary>
public sealed class PipelineBehavior
{
    /// <summary>The answer to a request; by default its text, once.</summary>
    public Func<Ping, ServerCallContext, Task<Pong>> Answer { get; set; } = (request, _) => Task.FromResult(new Pong { Text = request.Text, Count = 1 });

    /// <summary>Thrown by a server stream after its messages, when set.</summary>
    public Exception? FailAfterStream { get; set; }

    /// <summary>How many times the service was called.</summary>
    public int Calls { get; private set; }

    /// <summary>Counts the call, then answers as <see cref="Answer"/> says.</summary>
    public Task<Pong> AnswerCounted(Ping request, ServerCallContext context)
    {
        Calls++;
        return Answer(request, context);
    }
}

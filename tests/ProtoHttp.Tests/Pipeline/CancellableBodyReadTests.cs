using System.IO.Pipelines;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>
/// A deadline that fires after the client reset its request stream: Kestrel's body reader then rethrows the reset from
/// <see cref="PipeReader.CancelPendingRead"/>, inside the deadline's timer, where an escaping exception ends the process
/// (seen once in CI: Client.FunctionalTests' host crashed in StreamLifetimeTests).
/// </summary>
public sealed class CancellableBodyReadTests
{
    [Fact]
    public void ADeadlineAfterTheClientResetTheStreamDoesNotThrowFromItsCallback()
    {
        var reader = new ResetBodyReader();
        using var deadline = new CancellationTokenSource();

        var read = CancellableBodyRead.ReadAsync(reader, deadline.Token);

        // Cancel runs the registered callbacks inline and throws an AggregateException if one of them throws.
        deadline.Cancel();
        Assert.True(reader.CancelAsked);
        Assert.False(read.IsCompleted);
    }

    /// <summary>A body reader whose client reset the stream while a read was pending, as Kestrel's HTTP/2 one behaves.</summary>
    private sealed class ResetBodyReader : PipeReader
    {
        private readonly TaskCompletionSource<ReadResult> _pending = new();

        public bool CancelAsked { get; private set; }

        public override ValueTask<ReadResult> ReadAsync(CancellationToken cancellationToken = default) => new(_pending.Task);

        public override void CancelPendingRead()
        {
            CancelAsked = true;
            throw new IOException("The client reset the request stream.");
        }

        public override bool TryRead(out ReadResult result) => throw new NotSupportedException();

        public override void AdvanceTo(SequencePosition consumed) => throw new NotSupportedException();

        public override void AdvanceTo(SequencePosition consumed, SequencePosition examined) => throw new NotSupportedException();

        public override void Complete(Exception? exception = null)
        {
        }
    }
}

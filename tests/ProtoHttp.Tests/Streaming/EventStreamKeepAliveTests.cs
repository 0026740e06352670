using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.Streaming;
using ProtoService;

namespace ProtoHttp.Tests.Streaming;

/// <summary>
/// The event stream's keep-alive comments (docs/protocol.md section 10) against a response whose flushes the test holds
/// open: an event, or the end, whose write is waiting on the network is the moment a comment could land inside it. The
/// writer states no invariant about how its writes await; what keeps a comment out is its lock, and these tests fail if
/// a comment is written without it.
/// </summary>
public sealed class EventStreamKeepAliveTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);
    private static readonly SearchRequest Message = new() { Query = "tea", ResultPerPage = 2 };
    private const string Event = "data: { \"query\": \"tea\", \"resultPerPage\": 2 }\n\n";

    // The clock's own timer never fires during a test: the test ticks by hand.
    private static readonly TimeSpan Interval = TimeSpan.FromHours(1);

    [Fact]
    public async Task NoCommentWhileAnEventWaitsOnTheNetwork()
    {
        await using var subject = new Subject();
        var (body, writer, tick) = (subject.Body, subject.Writer, subject.Tick);

        body.HoldFlushes();
        var write = writer.WriteMessageAsync(Message, CancellationToken.None);
        Assert.False(write.IsCompleted);
        tick.OnKeepAliveTick();
        tick.OnKeepAliveTick();
        Assert.Equal(Event, body.Text);

        body.ReleaseFlushes();
        await write.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(Event, body.Text);
    }

    [Fact]
    public async Task NoCommentWhileTheEndWaitsOnTheNetwork()
    {
        await using var subject = new Subject();
        var (body, writer, tick) = (subject.Body, subject.Writer, subject.Tick);

        body.HoldFlushes();
        var end = writer.EndAsync(StreamOutcome.Ok(null));
        Assert.False(end.IsCompleted);
        tick.OnKeepAliveTick();
        Assert.Equal("event: end\ndata: {\"code\":\"OK\"}\n\n", body.Text);

        body.ReleaseFlushes();
        await end.WaitAsync(TimeSpan.FromSeconds(30));
        tick.OnKeepAliveTick();
        tick.OnKeepAliveTick();
        Assert.Equal("event: end\ndata: {\"code\":\"OK\"}\n\n", body.Text);
    }

    [Fact]
    public async Task ACommentFollowsAWholeIdleTickAndFallsBetweenEvents()
    {
        await using var subject = new Subject();
        var (body, writer, tick) = (subject.Body, subject.Writer, subject.Tick);

        await writer.WriteMessageAsync(Message, CancellationToken.None);
        tick.OnKeepAliveTick();
        Assert.Equal(Event, body.Text);
        tick.OnKeepAliveTick();
        Assert.Equal(Event + ":\n\n", body.Text);
        await writer.WriteMessageAsync(Message, CancellationToken.None);

        Assert.Equal(Event + ":\n\n" + Event, body.Text);
    }

    [Fact]
    public async Task AnEventWaitsForACommentOnTheNetwork()
    {
        await using var subject = new Subject();
        var (body, writer, tick) = (subject.Body, subject.Writer, subject.Tick);

        body.HoldFlushes();
        tick.OnKeepAliveTick();
        var write = writer.WriteMessageAsync(Message, CancellationToken.None);
        Assert.False(write.IsCompleted);
        Assert.Equal(":\n\n", body.Text);

        body.ReleaseFlushes();
        await write.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.Equal(":\n\n" + Event, body.Text);
    }

    [Fact]
    public async Task TheClockTicksItsMembersAndStopsWithTheLast()
    {
        var clock = KeepAliveClock.For(TimeSpan.FromMilliseconds(7));
        var member = new CountingMember();

        clock.Join(member);
        Assert.True(clock.IsRunning);
        await member.Ticked.Task.WaitAsync(TimeSpan.FromSeconds(30));
        clock.Leave(member);

        Assert.False(clock.IsRunning);
    }

    /// <summary>A writer over a held body; disposing releases the body first, so a failed test cannot hang on a held flush.</summary>
    private sealed class Subject : IAsyncDisposable
    {
        public Subject()
        {
            var context = new DefaultHttpContext();
            context.Features.Set<IHttpResponseBodyFeature>(new HeldBodyFeature(Body));
            var json = Codecs.Codec(CodecNames.Json);
            Writer = new EventStreamWriter(context, new StreamMediaType("text/event-stream", StreamFormat.Events, "text/event-stream", json), json, Interval);
        }

        public HeldPipeWriter Body { get; } = new();

        public EventStreamWriter Writer { get; }

        public KeepAliveClock.IKeepAliveMember Tick => Writer;

        public async ValueTask DisposeAsync()
        {
            Body.ReleaseFlushes();
            await Writer.DisposeAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));
        }
    }

    private sealed class HeldBodyFeature(PipeWriter writer) : IHttpResponseBodyFeature
    {
        public Stream Stream => Stream.Null;

        public PipeWriter Writer => writer;

        public void DisableBuffering()
        {
        }

        public Task StartAsync(CancellationToken cancellationToken = default) => Task.CompletedTask;

        public Task SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken = default) => throw new NotSupportedException();

        public Task CompleteAsync() => Task.CompletedTask;
    }

    private sealed class CountingMember : KeepAliveClock.IKeepAliveMember
    {
        public TaskCompletionSource Ticked { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public void OnKeepAliveTick() => Ticked.TrySetResult();
    }

    /// <summary>A response body that keeps every byte written to it, flushed or not, and can hold its flushes open.</summary>
    private sealed class HeldPipeWriter : PipeWriter
    {
        private readonly ArrayBufferWriter<byte> _written = new();
        private TaskCompletionSource<FlushResult>? _held;

        public string Text => Encoding.UTF8.GetString(_written.WrittenSpan);

        public void HoldFlushes() => _held = new TaskCompletionSource<FlushResult>(TaskCreationOptions.RunContinuationsAsynchronously);

        public void ReleaseFlushes()
        {
            var held = _held;
            _held = null;
            held?.SetResult(default);
        }

        public override void Advance(int bytes) => _written.Advance(bytes);

        public override Memory<byte> GetMemory(int sizeHint = 0) => _written.GetMemory(sizeHint);

        public override Span<byte> GetSpan(int sizeHint = 0) => _written.GetSpan(sizeHint);

        public override ValueTask<FlushResult> FlushAsync(CancellationToken cancellationToken = default) =>
            _held is { } held ? new ValueTask<FlushResult>(held.Task) : ValueTask.FromResult(default(FlushResult));

        public override void CancelPendingFlush() => throw new NotSupportedException();

        public override void Complete(Exception? exception = null)
        {
        }
    }
}

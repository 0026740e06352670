using System.IO.Pipelines;
using System.Text;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.AspNetCore.Framing;
using ProtoHttp.Streaming;
using ProtoService;

namespace ProtoHttp.Tests.Streaming;

/// <summary>
/// How a stream's write stops waiting for the network when its token fires: <see cref="PipeWriter.CancelPendingFlush"/>,
/// never the token handed to the flush (docs/protocol.md section 10). On a real <see cref="Pipe"/>, as under Kestrel, a
/// cancel that finds no flush waiting is kept for the next flush.
/// </summary>
public sealed class StreamFlushCancellationTests
{
    private static readonly MessageCodecs Codecs = new(FormatOptions.Default);
    private static readonly SearchRequest Message = new() { Query = "chai" };

    [Fact]
    public async Task ACancelThatCameJustAfterAFlushCompletedDoesNotCostTheEndRecord()
    {
        // The deadline fires as a write's waiting flush completes, before the write removes its cancel: the pipe keeps
        // that cancel for the next flush, which is the end record's, under a token that has not fired.
        var pipe = new Pipe();
        await using var writer = Writer(pipe.Writer);
        await writer.WriteMessageAsync(Message, CancellationToken.None);
        pipe.Writer.CancelPendingFlush();

        await writer.EndAsync(new StreamOutcome(Grpc.Core.StatusCode.DeadlineExceeded, "The deadline passed.", null)).WaitAsync(TimeSpan.FromSeconds(30));

        var body = await ReadFlushedAsync(pipe.Reader);
        Assert.Equal(2, body.Split('\n', StringSplitOptions.RemoveEmptyEntries).Length);
        Assert.Contains("DEADLINE_EXCEEDED", body, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AFlushThatWaitsIsStoppedByTheTokenAndTheEndStillGoesOut()
    {
        // A reader that takes nothing: the first write waits on the network until its token fires.
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 1, resumeWriterThreshold: 1));
        await using var writer = Writer(pipe.Writer);
        using var deadline = new CancellationTokenSource();

        var write = writer.WriteMessageAsync(Message, deadline.Token);
        Assert.False(write.IsCompleted);
        await deadline.CancelAsync();

        var cancelled = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => write.WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(deadline.Token, cancelled.CancellationToken);
        var end = writer.EndAsync(new StreamOutcome(Grpc.Core.StatusCode.DeadlineExceeded, "The deadline passed.", null));
        var body = await ReadAllAsync(pipe.Reader, end);
        Assert.Contains("DEADLINE_EXCEEDED", body, StringComparison.Ordinal);
    }

    private static StreamResponseWriter Writer(PipeWriter body)
    {
        var context = new DefaultHttpContext();
        context.Features.Set<IHttpResponseBodyFeature>(new PipeBodyFeature(body));
        var json = Codecs.Codec(CodecNames.Json);
        return StreamResponseWriter.For(context, new StreamMediaType("application/x-ndjson", StreamFormat.Lines, "application/x-ndjson", json), Timeout.InfiniteTimeSpan);
    }

    /// <summary>What was flushed so far.</summary>
    private static async Task<string> ReadFlushedAsync(PipeReader reader)
    {
        var result = await reader.ReadAsync();
        var text = Encoding.UTF8.GetString(result.Buffer);
        reader.AdvanceTo(result.Buffer.End);
        return text;
    }

    /// <summary>Reads what the writer flushes until <paramref name="text"/> has come and <paramref name="writing"/> completed.</summary>
    private static async Task<string> ReadAllAsync(PipeReader reader, Task writing, string text = "DEADLINE_EXCEEDED")
    {
        var body = new StringBuilder();
        while (!body.ToString().Contains(text, StringComparison.Ordinal))
        {
            var result = await reader.ReadAsync().AsTask().WaitAsync(TimeSpan.FromSeconds(30));
            body.Append(Encoding.UTF8.GetString(result.Buffer));
            reader.AdvanceTo(result.Buffer.End);
        }

        await writing.WaitAsync(TimeSpan.FromSeconds(30));
        return body.ToString();
    }

    private sealed class PipeBodyFeature(PipeWriter writer) : IHttpResponseBodyFeature
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
}

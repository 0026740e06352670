using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>Keeps every log line the server writes, so tests can assert what was (and was not) logged.</summary>
public sealed class LogSink : ILoggerProvider
{
    private const string HostingCategory = "Microsoft.AspNetCore.Hosting.Diagnostics";

    private readonly ConcurrentQueue<LogEntry> _entries = new();
    private readonly ConcurrentQueue<(bool Start, string Message)> _hostingLines = new(); // Survives Clear, as the counts do.
    private int _requestsStarted;
    private int _requestsEnded; // Counted apart from the entries, which a test may clear.
    private int _connectionsStarted;
    private int _deadlinesPassed;

    public IReadOnlyCollection<LogEntry> Entries => _entries;

    public IEnumerable<LogEntry> Errors => _entries.Where(e => e.Level >= LogLevel.Error);

    public void Clear() => _entries.Clear();

    /// <summary>
    /// Waits until every request the server has begun has ended, then returns: ASP.NET Core's hosting layer logs a
    /// request's end (<c>RequestFinished</c>) after the app, its error logs, Kestrel's report of an unhandled exception
    /// and the <c>OnCompleted</c> callbacks, so once the count of ends reaches the count of starts, every log line
    /// those requests cause is here. A client has its answer a moment before that: this, not a pause, is when a test
    /// may say what was not logged.
    /// </summary>
    /// <remarks>Kestrel's drain of an unread request body comes after the request's end; see the tests that need it.</remarks>
    public async Task WhenRequestsEndedAsync(TimeSpan? timeout = null)
    {
        var deadline = DateTime.UtcNow + (timeout ?? TimeSpan.FromSeconds(30));
        while (true)
        {
            var (started, ended) = (Volatile.Read(ref _requestsStarted), Volatile.Read(ref _requestsEnded));
            if (ended >= started && started > 0)
            {
                return;
            }

            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException(started == 0
                    ? $"No request's start line reached the log in {timeout ?? TimeSpan.FromSeconds(30)}: the app must log {HostingCategory} at Information to this sink."
                    : $"{started - ended} of the server's {started} requests had not ended after {timeout ?? TimeSpan.FromSeconds(30)}.");
            }

            await Task.Delay(10); // Polls a definite condition: how often, not how long.
        }
    }

    /// <summary>
    /// The Error (or worse) lines once every request the server has begun has ended (<see cref="WhenRequestsEndedAsync"/>,
    /// bounded by <paramref name="timeout"/>): what a test asserts "nothing was logged as an error" on, since an error
    /// logged after the answer (a failed flush, an OnCompleted callback, Kestrel's report of an unhandled exception)
    /// lands after the client has its response.
    /// </summary>
    public async Task<IReadOnlyList<LogEntry>> ErrorsOnceEndedAsync(TimeSpan? timeout = null)
    {
        await WhenRequestsEndedAsync(timeout);
        return Errors.ToList();
    }

    /// <summary>
    /// How many Error lines there are once every earlier request has ended: where a test's own errors begin, for a
    /// fixture whose other tests log errors on purpose (skip this many of <see cref="ErrorsOnceEndedAsync(TimeSpan?)"/>).
    /// </summary>
    public async Task<int> ErrorCountOnceEndedAsync()
    {
        if (Volatile.Read(ref _requestsStarted) > 0)
        {
            await WhenRequestsEndedAsync();
        }

        return Errors.Count();
    }

    /// <summary>
    /// As <see cref="ErrorsOnceEndedAsync(TimeSpan?)"/>, but waits only for the requests whose URL contains <paramref name="path"/>
    /// (hosting's start and end lines both name it): for a test that holds another request open on purpose, such as a
    /// page's live stream.
    /// </summary>
    public async Task<IReadOnlyList<LogEntry>> ErrorsOnceEndedAsync(string path, TimeSpan? timeout = null)
    {
        var bound = timeout ?? TimeSpan.FromSeconds(30);
        var deadline = DateTime.UtcNow + bound;
        while (true)
        {
            var started = _hostingLines.Count(line => line.Start && line.Message.Contains(path, StringComparison.Ordinal));
            var ended = _hostingLines.Count(line => !line.Start && line.Message.Contains(path, StringComparison.Ordinal));
            if (ended >= started && started > 0)
            {
                return Errors.ToList();
            }

            if (DateTime.UtcNow > deadline)
            {
                throw new TimeoutException($"{started - ended} of the server's {started} requests to {path} had not ended after {bound}.");
            }

            await Task.Delay(10); // Polls a definite condition: how often, not how long.
        }
    }

    /// <summary>How many connections Kestrel has accepted: its Debug line for each (the count survives <see cref="Clear"/>).</summary>
    public int ConnectionsStarted => Volatile.Read(ref _connectionsStarted);

    /// <summary>How many calls ProtoHttp has logged as past their deadline (<c>DeadlineExceeded</c>; the count survives <see cref="Clear"/>).</summary>
    public int DeadlinesPassed => Volatile.Read(ref _deadlinesPassed);

    /// <summary>
    /// Completes once <see cref="DeadlinesPassed"/> reaches <paramref name="count"/>: the server has decided that a call
    /// ran out of time, so a test can hold back what would otherwise let the call finish until then, instead of for a
    /// pause it hopes is long enough. After 30 s it completes anyway, so a server that never decides leaves the test to
    /// fail on what it asserts rather than hang.
    /// </summary>
    public async Task WhenDeadlinesPassedAsync(int count)
    {
        for (var giveUp = DateTime.UtcNow.AddSeconds(30); DeadlinesPassed < count && DateTime.UtcNow < giveUp;)
        {
            await Task.Delay(10); // Polls a definite condition: how often, not how long.
        }
    }

    public ILogger CreateLogger(string categoryName) => new SinkLogger(categoryName, this);

    public void Dispose()
    {
    }

    private void Add(LogEntry entry)
    {
        _entries.Enqueue(entry);
        if (entry.EventId.Name == "ConnectionStart" && entry.Category.StartsWith("Microsoft.AspNetCore.Server.Kestrel", StringComparison.Ordinal))
        {
            Interlocked.Increment(ref _connectionsStarted);
        }

        if (entry.EventId.Name == "DeadlineExceeded" && entry.Category.StartsWith("ProtoHttp", StringComparison.Ordinal))
        {
            Interlocked.Increment(ref _deadlinesPassed);
        }

        if (entry.Category == HostingCategory)
        {
            // Hosting's event ids are numbers without names: 1 RequestStarting, 2 RequestFinished.
            if (entry.EventId.Id == 1)
            {
                _hostingLines.Enqueue((true, entry.Message));
                Interlocked.Increment(ref _requestsStarted);
            }
            else if (entry.EventId.Id == 2)
            {
                _hostingLines.Enqueue((false, entry.Message));
                Interlocked.Increment(ref _requestsEnded);
            }
        }
    }

    private sealed class SinkLogger(string category, LogSink sink) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            sink.Add(new LogEntry(category, logLevel, eventId, formatter(state, exception), exception));
    }
}

public sealed record LogEntry(string Category, LogLevel Level, EventId EventId, string Message, Exception? Exception);

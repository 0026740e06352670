using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>Keeps every log line the server writes, so tests can assert what was (and was not) logged.</summary>
public sealed class LogSink : ILoggerProvider
{
    private readonly ConcurrentQueue<LogEntry> _entries = new();

    public IReadOnlyCollection<LogEntry> Entries => _entries;

    public IEnumerable<LogEntry> Errors => _entries.Where(e => e.Level >= LogLevel.Error);

    public void Clear() => _entries.Clear();

    public ILogger CreateLogger(string categoryName) => new SinkLogger(categoryName, _entries);

    public void Dispose()
    {
    }

    private sealed class SinkLogger(string category, ConcurrentQueue<LogEntry> entries) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            entries.Enqueue(new LogEntry(category, logLevel, eventId, formatter(state, exception), exception));
    }
}

public sealed record LogEntry(string Category, LogLevel Level, EventId EventId, string Message, Exception? Exception);

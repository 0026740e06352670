using Microsoft.Extensions.Logging;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>Keeps the event name and level of every entry, so a test can tell whom a failure was blamed on.</summary>
public sealed class RecordingLogger : ILogger
{
    private readonly List<(string Event, LogLevel Level)> _entries = [];

    public IReadOnlyList<(string Event, LogLevel Level)> Entries
    {
        get
        {
            lock (_entries)
            {
                return [.. _entries];
            }
        }
    }

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => true;

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        lock (_entries)
        {
            _entries.Add((eventId.Name ?? "", logLevel));
        }
    }
}

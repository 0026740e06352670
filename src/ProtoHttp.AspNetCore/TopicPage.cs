namespace ProtoHttp.AspNetCore;

/// <summary>What one read of a topic's log returned.</summary>
/// <param name="entries">The entries after the position asked for, oldest first.</param>
/// <param name="truncated">Whether messages after the position asked for are no longer in the log.</param>
public sealed class TopicPage(IReadOnlyList<TopicEntry> entries, bool truncated)
{
    /// <summary>The entries after the position asked for, oldest first.</summary>
    public IReadOnlyList<TopicEntry> Entries { get; } = entries;

    /// <summary>
    /// Whether messages after the position asked for are no longer in the log (trimmed by its length or age bound): the
    /// entries then start later than the reader asked, and a resuming subscriber is told so.
    /// </summary>
    public bool Truncated { get; } = truncated;
}

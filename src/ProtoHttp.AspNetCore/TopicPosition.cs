using System.Diagnostics.CodeAnalysis;
using System.Globalization;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// Where a message sits in a topic's log: two numbers, ordered as the engine orders its log, written
/// <c>{Major}-{Minor}</c>. Redis stream ids are exactly this shape; an engine with one sequence number
/// (NATS JetStream, the in-memory log) uses <c>{sequence}-0</c>. It is the SSE event's <c>id:</c> and what
/// <c>Last-Event-ID</c> sends back (docs/protocol.md, "Topics: streams that resume").
/// </summary>
public readonly struct TopicPosition : IEquatable<TopicPosition>, IComparable<TopicPosition>
{
    /// <summary>A position.</summary>
    /// <param name="major">The first, most significant number.</param>
    /// <param name="minor">The second number.</param>
    public TopicPosition(ulong major, ulong minor)
    {
        Major = major;
        Minor = minor;
    }

    /// <summary>The first, most significant number.</summary>
    public ulong Major { get; }

    /// <summary>The second number.</summary>
    public ulong Minor { get; }

    /// <summary>Before every message: reading after it reads the whole log.</summary>
    public static TopicPosition Start => default;

    /// <inheritdoc/>
    public bool Equals(TopicPosition other) => Major == other.Major && Minor == other.Minor;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is TopicPosition other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(Major, Minor);

    /// <inheritdoc/>
    public int CompareTo(TopicPosition other) =>
        Major != other.Major ? Major.CompareTo(other.Major) : Minor.CompareTo(other.Minor);

    /// <summary>Whether the two are the same position.</summary>
    public static bool operator ==(TopicPosition left, TopicPosition right) => left.Equals(right);

    /// <summary>Whether the two are different positions.</summary>
    public static bool operator !=(TopicPosition left, TopicPosition right) => !left.Equals(right);

    /// <summary>Whether <paramref name="left"/> comes before <paramref name="right"/>.</summary>
    public static bool operator <(TopicPosition left, TopicPosition right) => left.CompareTo(right) < 0;

    /// <summary>Whether <paramref name="left"/> comes after <paramref name="right"/>.</summary>
    public static bool operator >(TopicPosition left, TopicPosition right) => left.CompareTo(right) > 0;

    /// <summary>Whether <paramref name="left"/> is not after <paramref name="right"/>.</summary>
    public static bool operator <=(TopicPosition left, TopicPosition right) => left.CompareTo(right) <= 0;

    /// <summary>Whether <paramref name="left"/> is not before <paramref name="right"/>.</summary>
    public static bool operator >=(TopicPosition left, TopicPosition right) => left.CompareTo(right) >= 0;

    /// <summary>Reads <c>{Major}-{Minor}</c>, two unsigned decimal numbers and nothing else.</summary>
    /// <param name="text">The text, as an event's <c>id:</c> carried it.</param>
    /// <param name="position">The position read.</param>
    /// <returns>Whether <paramref name="text"/> is a position.</returns>
    public static bool TryParse([NotNullWhen(true)] string? text, out TopicPosition position)
    {
        position = default;
        if (text is null)
        {
            return false;
        }

        var dash = text.IndexOf('-', StringComparison.Ordinal);
        if (dash <= 0
            || !ulong.TryParse(text.AsSpan(0, dash), NumberStyles.None, CultureInfo.InvariantCulture, out var major)
            || !ulong.TryParse(text.AsSpan(dash + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var minor))
        {
            return false;
        }

        position = new TopicPosition(major, minor);
        return true;
    }

    /// <summary>The position as <c>{Major}-{Minor}</c>.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Major}-{Minor}");
}

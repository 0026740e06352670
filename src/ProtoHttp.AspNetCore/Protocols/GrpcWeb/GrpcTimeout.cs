using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// Reads the <c>grpc-timeout</c> header as gRPC defines it: 1 to 8 ASCII digits, then the unit, one of <c>H</c>
/// (hours), <c>M</c> (minutes), <c>S</c> (seconds), <c>m</c> (milliseconds), <c>u</c> (microseconds), <c>n</c>
/// (nanoseconds). docs/protocol.md, gRPC-Web.
/// </summary>
internal static class GrpcTimeout
{
    public const string HeaderName = "grpc-timeout";

    private const int MaxDigits = 8;

    /// <summary>The timeout the header asks for, or <see langword="null"/> when there is none.</summary>
    /// <exception cref="CallRejectedException">The value is not 1 to 8 digits and a unit (<c>INVALID_ARGUMENT</c>).</exception>
    public static TimeSpan? Parse(string? value)
    {
        if (value is null)
        {
            return null;
        }

        if (value.Length is < 2 or > MaxDigits + 1 || !IsDigits(value.AsSpan(0, value.Length - 1)) || Unit(value[^1]) is not { } ticksPerUnit)
        {
            throw CallRejectedException.BadRequest(
                $"The {HeaderName} header must be 1 to {MaxDigits} digits and a unit (H, M, S, m, u or n), as in 500m or 30S, not '{value}'.");
        }

        var amount = long.Parse(value.AsSpan(0, value.Length - 1), provider: System.Globalization.CultureInfo.InvariantCulture);

        // Nanoseconds are finer than a tick (100 ns): a timeout of under 100 ns still expires, at once, rather than never.
        return ticksPerUnit == 0 ? TimeSpan.FromTicks((amount + 99) / 100) : TimeSpan.FromTicks(amount * ticksPerUnit);
    }

    // 99999999 hours is 3.6e18 ticks, within a long: every value that passes the length check fits.
    private static long? Unit(char unit) => unit switch
    {
        'H' => TimeSpan.TicksPerHour,
        'M' => TimeSpan.TicksPerMinute,
        'S' => TimeSpan.TicksPerSecond,
        'm' => TimeSpan.TicksPerMillisecond,
        'u' => TimeSpan.TicksPerMicrosecond,
        'n' => 0,
        _ => null,
    };

    private static bool IsDigits(ReadOnlySpan<char> value) => !value.ContainsAnyExceptInRange('0', '9');
}

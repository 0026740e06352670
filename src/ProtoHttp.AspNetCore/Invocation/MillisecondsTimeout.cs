using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// Reads a timeout of 1 to 10 digits of milliseconds, as the <c>Connect-Timeout-Ms</c> header carries it (docs/protocol.md
/// section 6): Connect's header, which ProtoHttp's own routes, REST and calls over WebSocket take too.
/// </summary>
internal static class MillisecondsTimeout
{
    public const string HeaderName = "Connect-Timeout-Ms";

    /// <summary>The timeout the header asks for, or <see langword="null"/> when there is none.</summary>
    /// <exception cref="CallRejectedException">The header is not 1 to 10 digits (400).</exception>
    public static TimeSpan? Parse(string? value)
    {
        if (value is null)
        {
            return null;
        }

        if (value.Length is 0 or > 10 || !IsDigits(value))
        {
            throw CallRejectedException.BadRequest($"The {HeaderName} header must be 1 to 10 digits of milliseconds, not '{value}'.");
        }

        return TimeSpan.FromMilliseconds(long.Parse(value, System.Globalization.CultureInfo.InvariantCulture));
    }

    private static bool IsDigits(string value)
    {
        foreach (var c in value)
        {
            if (c is < '0' or > '9')
            {
                return false;
            }
        }

        return true;
    }
}

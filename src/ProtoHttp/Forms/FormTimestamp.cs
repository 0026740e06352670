using System.Text.RegularExpressions;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Forms;

/// <summary>
/// What an HTML <c>&lt;input type="datetime-local"&gt;</c> sends for a Timestamp: <c>2024-05-06T07:08</c> or
/// <c>2024-05-06T07:08:09.5</c>, a date and time with no offset. Forms read it as UTC; RFC 3339 text passes unchanged.
/// </summary>
internal static partial class FormTimestamp
{
    /// <summary>The RFC 3339 text for <paramref name="text"/> when the field is a Timestamp given as a local date-time.</summary>
    public static string FromLocal(FieldDescriptor field, string text)
    {
        if (field.FieldType != FieldType.Message || field.MessageType.FullName != "google.protobuf.Timestamp"
            || LocalDateTime().Match(text) is not { Success: true } match)
        {
            return text;
        }

        return match.Groups[1].Success ? text + "Z" : text + ":00Z";
    }

    [GeneratedRegex(@"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$")]
    private static partial Regex LocalDateTime();
}

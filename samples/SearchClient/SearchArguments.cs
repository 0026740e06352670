using ProtoHttp;
using ProtoHttp.Client;

namespace SearchClient;

/// <summary>The command line: <c>query [--address URL] [--format protobuf|json|xml] [--protocol protohttp|connect] [--page N]</c>.</summary>
internal sealed record SearchArguments(string Query, Uri Address, MessageFormat Format, ClientProtocol Protocol, int? Page)
{
    public const string Usage =
        "usage: SearchClient <query> [--address http://localhost:5080] [--format protobuf|json|xml] [--protocol protohttp|connect] [--page N]";

    /// <summary>Reads the arguments, or returns <see langword="null"/> with the reason when they make no sense.</summary>
    public static SearchArguments? Parse(string[] args, out string? error)
    {
        string? query = null;
        var address = new Uri("http://localhost:5080");
        var format = MessageFormat.Protobuf;
        var protocol = ClientProtocol.ProtoHttp;
        int? page = null;
        error = null;
        for (var i = 0; i < args.Length; i++)
        {
            var value = i + 1 < args.Length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--address" when Uri.TryCreate(value, UriKind.Absolute, out var uri):
                    address = uri;
                    i++;
                    break;
                case "--format" when Enum.TryParse<MessageFormat>(value, ignoreCase: true, out var chosen) && chosen != MessageFormat.Form:
                    format = chosen;
                    i++;
                    break;
                case "--protocol" when Enum.TryParse<ClientProtocol>(value, ignoreCase: true, out var spoken):
                    protocol = spoken;
                    i++;
                    break;
                case "--page" when int.TryParse(value, out var number):
                    page = number;
                    i++;
                    break;
                case var option when option.StartsWith("--", StringComparison.Ordinal):
                    error = $"'{option}' needs a valid value or is unknown.";
                    return null;
                default:
                    query = query is null ? args[i] : $"{query} {args[i]}";
                    break;
            }
        }

        if (query is null)
        {
            error = "Say what to search for.";
            return null;
        }

        return new SearchArguments(query, address, format, protocol, page);
    }
}

using ProtoHttp;
using ProtoHttp.Client;

namespace SearchClient;

/// <summary>
/// The command line: <c>query [--address URL] [--format proto|json|xml] [--protocol protohttp|connect] [--page N]</c>,
/// or instead of a query <c>--replay N</c> (the first N orders, streamed) or <c>--upload N</c> (N orders, streamed up).
/// The format is a codec's name and the protocol a protocol's, as the client's registry knows them (<c>protobuf</c>
/// stands for <c>proto</c>); the client says which names it knows when one is not.
/// </summary>
internal sealed record SearchArguments(string Query, Uri Address, string Codec, string Protocol, int? Page)
{
    public const string Usage =
        "usage: SearchClient <query> [--address http://localhost:5080] [--format proto|json|xml] [--protocol protohttp|connect] [--page N]\n" +
        "       SearchClient --replay N | --upload N [--address ...] [--format proto|json] [--protocol ...]";

    /// <summary>How many orders to replay through the server stream, instead of searching.</summary>
    public int? Replay { get; init; }

    /// <summary>How many orders to upload through the client stream, instead of searching.</summary>
    public int? Upload { get; init; }

    /// <summary>Reads the arguments, or returns <see langword="null"/> with the reason when they make no sense.</summary>
    public static SearchArguments? Parse(string[] args, out string? error)
    {
        string? query = null;
        var address = new Uri("http://localhost:5080");
        var format = CodecNames.Protobuf;
        var protocol = ProtocolNames.ProtoHttp;
        int? page = null;
        int? replay = null;
        int? upload = null;
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
                case "--format" when !string.IsNullOrEmpty(value):
                    format = value.Equals("protobuf", StringComparison.OrdinalIgnoreCase) ? CodecNames.Protobuf : value;
                    i++;
                    break;
                case "--protocol" when !string.IsNullOrEmpty(value):
                    protocol = value;
                    i++;
                    break;
                case "--page" when int.TryParse(value, out var number):
                    page = number;
                    i++;
                    break;
                case "--replay" when int.TryParse(value, out var count) && count > 0:
                    replay = count;
                    i++;
                    break;
                case "--upload" when int.TryParse(value, out var count) && count >= 0:
                    upload = count;
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

        if (query is null && replay is null && upload is null)
        {
            error = "Say what to search for.";
            return null;
        }

        return new SearchArguments(query ?? "", address, format, protocol, page) { Replay = replay, Upload = upload };
    }
}

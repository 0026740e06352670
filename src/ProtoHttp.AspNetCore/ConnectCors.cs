namespace ProtoHttp.AspNetCore;

/// <summary>
/// The headers a browser's Connect client (connect-web) sends and reads, for an app's CORS policy on ProtoHttp
/// endpoints called from another origin: <c>policy.WithHeaders(ConnectCors.AllowedHeaders).WithExposedHeaders(ConnectCors.ExposedHeaders)</c>.
/// </summary>
public static class ConnectCors
{
    /// <summary>Request headers Connect clients send: the codec, the protocol version, the deadline and compression.</summary>
    public static IReadOnlyList<string> AllowedHeaders { get; } =
    [
        "Content-Type",
        "Connect-Protocol-Version",
        "Connect-Timeout-Ms",
        "Content-Encoding",
        "Accept-Encoding",
        "Connect-Content-Encoding",
        "Connect-Accept-Encoding",
        "X-User-Agent",
    ];

    /// <summary>Response headers a Connect client must be able to read: the compression it has to undo.</summary>
    public static IReadOnlyList<string> ExposedHeaders { get; } =
    [
        "Content-Encoding",
        "Connect-Content-Encoding",
    ];
}

namespace ProtoHttp.AspNetCore;

/// <summary>
/// The headers a browser's gRPC-Web client (grpc-web, connect-es's <c>createGrpcWebTransport</c>) sends and reads, for
/// an app's CORS policy on ProtoHttp endpoints called from another origin:
/// <c>policy.WithHeaders(GrpcWebCors.AllowedHeaders).WithExposedHeaders(GrpcWebCors.ExposedHeaders)</c>.
/// </summary>
public static class GrpcWebCors
{
    /// <summary>Request headers gRPC-Web clients send: the type, the deadline, the client's marker and name, compression.</summary>
    public static IReadOnlyList<string> AllowedHeaders { get; } =
    [
        "Content-Type",
        "Grpc-Timeout",
        "X-Grpc-Web",
        "X-User-Agent",
        "Grpc-Encoding",
        "Grpc-Accept-Encoding",
    ];

    /// <summary>
    /// Response headers a gRPC-Web client must be able to read: the status, where a refusal (405, 415) carries it as
    /// headers; a call's outcome travels in the body's trailers frame, which needs no exposing.
    /// </summary>
    public static IReadOnlyList<string> ExposedHeaders { get; } =
    [
        "Grpc-Status",
        "Grpc-Message",
        "Grpc-Status-Details-Bin",
    ];
}

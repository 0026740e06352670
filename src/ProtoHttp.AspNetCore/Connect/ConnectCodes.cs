using Grpc.Core;

namespace ProtoHttp.AspNetCore.Connect;

/// <summary>The Connect protocol's names for the gRPC status codes, and the HTTP status each answers with.</summary>
internal static class ConnectCodes
{
    /// <summary>The lower-case code name of Connect's error JSON, e.g. <c>not_found</c>.</summary>
    public static string Name(StatusCode code) => code switch
    {
        StatusCode.Cancelled => "canceled", // Connect spells it with one l.
        StatusCode.Unknown => "unknown",
        StatusCode.InvalidArgument => "invalid_argument",
        StatusCode.DeadlineExceeded => "deadline_exceeded",
        StatusCode.NotFound => "not_found",
        StatusCode.AlreadyExists => "already_exists",
        StatusCode.PermissionDenied => "permission_denied",
        StatusCode.ResourceExhausted => "resource_exhausted",
        StatusCode.FailedPrecondition => "failed_precondition",
        StatusCode.Aborted => "aborted",
        StatusCode.OutOfRange => "out_of_range",
        StatusCode.Unimplemented => "unimplemented",
        StatusCode.Internal => "internal",
        StatusCode.Unavailable => "unavailable",
        StatusCode.DataLoss => "data_loss",
        StatusCode.Unauthenticated => "unauthenticated",
        _ => "unknown",
    };

    /// <summary>
    /// The HTTP status of a unary error: Connect's table, which is google.rpc's HTTP mapping and so the one
    /// <see cref="StatusMapping"/> already holds for ProtoHttp's own routes.
    /// </summary>
    public static int HttpStatus(StatusCode code) => StatusMapping.ToHttpStatus(code);
}

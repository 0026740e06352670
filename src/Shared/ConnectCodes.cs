using Grpc.Core;

namespace ProtoHttp;

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

    /// <summary>The status code a Connect code name stands for; false for a name Connect does not define.</summary>
    public static bool TryParse(string? name, out StatusCode code)
    {
        foreach (var candidate in Enum.GetValues<StatusCode>())
        {
            if (candidate != StatusCode.OK && Name(candidate) == name)
            {
                code = candidate;
                return true;
            }
        }

        code = StatusCode.Unknown;
        return false;
    }

    /// <summary>
    /// The code a Connect client infers from an error that carries no Connect error JSON (a proxy's page, say), by
    /// the protocol's table for HTTP statuses.
    /// </summary>
    public static StatusCode FromHttpStatus(int httpStatus) => httpStatus switch
    {
        400 => StatusCode.Internal,
        401 => StatusCode.Unauthenticated,
        403 => StatusCode.PermissionDenied,
        404 => StatusCode.Unimplemented,
        429 or 502 or 503 or 504 => StatusCode.Unavailable,
        _ => StatusCode.Unknown,
    };
}

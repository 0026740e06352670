using Grpc.Core;

namespace ProtoHttp;

/// <summary>
/// gRPC status codes to HTTP status codes and back (docs/protocol.md section 5). The two tables are not inverses:
/// several codes share one HTTP status, and HTTP statuses a proxy may answer map to the nearest code.
/// </summary>
public static class StatusMapping
{
    /// <summary>The HTTP status a gRPC status code answers with.</summary>
    public static int ToHttpStatus(StatusCode code) => code switch
    {
        StatusCode.OK => 200,
        StatusCode.InvalidArgument or StatusCode.FailedPrecondition or StatusCode.OutOfRange => 400,
        StatusCode.Unauthenticated => 401,
        StatusCode.PermissionDenied => 403,
        StatusCode.NotFound => 404,
        StatusCode.AlreadyExists or StatusCode.Aborted => 409,
        StatusCode.ResourceExhausted => 429,
        StatusCode.Cancelled => 499,
        StatusCode.Unimplemented => 501,
        StatusCode.Unavailable => 503,
        StatusCode.DeadlineExceeded => 504,
        _ => 500,
    };

    /// <summary>The gRPC status code an HTTP status implies when the answer carries no ErrorResult code.</summary>
    public static StatusCode FromHttpStatus(int httpStatus) => httpStatus switch
    {
        >= 200 and < 300 => StatusCode.OK,
        400 or 405 or 406 or 415 => StatusCode.InvalidArgument,
        401 => StatusCode.Unauthenticated,
        403 => StatusCode.PermissionDenied,
        404 => StatusCode.NotFound,
        409 => StatusCode.Aborted,
        413 or 429 => StatusCode.ResourceExhausted,
        499 => StatusCode.Cancelled,
        501 => StatusCode.Unimplemented,
        502 or 503 => StatusCode.Unavailable,
        504 => StatusCode.DeadlineExceeded,
        _ => StatusCode.Unknown,
    };

    /// <summary>The status name ErrorResult carries in <c>code</c>, e.g. <c>NOT_FOUND</c>.</summary>
    public static string ToCodeName(StatusCode code) => code switch
    {
        StatusCode.OK => "OK",
        StatusCode.Cancelled => "CANCELLED",
        StatusCode.Unknown => "UNKNOWN",
        StatusCode.InvalidArgument => "INVALID_ARGUMENT",
        StatusCode.DeadlineExceeded => "DEADLINE_EXCEEDED",
        StatusCode.NotFound => "NOT_FOUND",
        StatusCode.AlreadyExists => "ALREADY_EXISTS",
        StatusCode.PermissionDenied => "PERMISSION_DENIED",
        StatusCode.ResourceExhausted => "RESOURCE_EXHAUSTED",
        StatusCode.FailedPrecondition => "FAILED_PRECONDITION",
        StatusCode.Aborted => "ABORTED",
        StatusCode.OutOfRange => "OUT_OF_RANGE",
        StatusCode.Unimplemented => "UNIMPLEMENTED",
        StatusCode.Internal => "INTERNAL",
        StatusCode.Unavailable => "UNAVAILABLE",
        StatusCode.DataLoss => "DATA_LOSS",
        StatusCode.Unauthenticated => "UNAUTHENTICATED",
        _ => "UNKNOWN",
    };

    /// <summary>Reads a status name from ErrorResult's <c>code</c>.</summary>
    public static bool TryParseCodeName(string name, out StatusCode code)
    {
        foreach (var candidate in Enum.GetValues<StatusCode>())
        {
            if (string.Equals(ToCodeName(candidate), name, StringComparison.OrdinalIgnoreCase))
            {
                code = candidate;
                return true;
            }
        }

        code = StatusCode.Unknown;
        return false;
    }
}

using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>What <see cref="CallErrors"/> needs to know about the call that failed.</summary>
internal readonly record struct CallFailureInfo(
    string Method,
    ILogger Logger,
    MessageCodecs Codecs,
    bool DetailedErrors,
    long MaxRequestBodySize,
    WritableMediaType? ErrorType,
    TimeSpan? Timeout = null,
    bool DeadlineExpired = false);

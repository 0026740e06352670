using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// What <see cref="CallErrors"/> needs to know about the call that failed. <c>FromService</c>: the exception came out
/// of the method invoker, so from the app's code (the service, its interceptors, their activation), not from
/// ProtoHttp's own reading, binding or writing. <c>Connect</c>: the call came in the Connect protocol, so its error is
/// Connect's JSON and its trailers are <c>trailer-</c> headers.
/// </summary>
internal readonly record struct CallFailureInfo(
    string Method,
    ILogger Logger,
    MessageCodecs Codecs,
    bool DetailedErrors,
    long MaxRequestBodySize,
    WritableMediaType? ErrorType,
    TimeSpan? Timeout = null,
    bool DeadlineExpired = false,
    bool FromService = false,
    bool Connect = false);

using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// One path a method answers at: its name plus <paramref name="Suffix"/> (empty, or one that forces a format), and the
/// format the suffix forces on an error; null where the request's <c>Accept</c> and body decide.
/// </summary>
internal readonly record struct MethodRoute(string Suffix, RequestDelegate Handler, WritableMediaType? ErrorType = null);

using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>One path a method answers at: its name plus <paramref name="Suffix"/> (empty, or one that forces a format).</summary>
internal readonly record struct MethodRoute(string Suffix, RequestDelegate Handler);

namespace ProtoHttp.AspNetCore.Invocation;

/// <summary>
/// The service (or an interceptor) completed a call with <see langword="null"/> instead of a response message: the
/// app's fault, answered as a clear 500 rather than left to fail later as a <see cref="NullReferenceException"/>.
/// </summary>
internal sealed class NullResponseException(string method)
    : InvalidOperationException($"{method} returned null instead of a response message.")
{
    public string Method { get; } = method;
}

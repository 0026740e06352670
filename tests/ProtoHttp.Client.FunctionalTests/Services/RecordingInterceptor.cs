using System.Collections.Concurrent;
using Grpc.Core;
using Grpc.Core.Interceptors;

namespace ProtoHttp.Client.FunctionalTests.Services;

/// <summary>A logging interceptor: records each call's method and outcome, and tells the client in an <c>x-intercepted</c> trailer.</summary>
public sealed class RecordingInterceptor(InterceptorRecord record) : Interceptor
{
    public override async Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        context.ResponseTrailers.Add("x-intercepted", context.Method);
        try
        {
            var response = await continuation(request, context);
            record.Calls.Enqueue((context.Method, response?.ToString() ?? "null"));
            return response!;
        }
        catch (RpcException ex)
        {
            record.Calls.Enqueue((context.Method, ex.StatusCode.ToString()));
            throw;
        }
    }
}

/// <summary>What <see cref="RecordingInterceptor"/> saw, shared by every call.</summary>
public sealed class InterceptorRecord
{
    public ConcurrentQueue<(string Method, string Outcome)> Calls { get; } = new();
}

using Grpc.Core;
using Grpc.Core.Interceptors;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>Adds its name to the <c>x-trace</c> trailer before calling on, so the answer shows the order interceptors ran in.</summary>
public sealed class TracingInterceptor(string name) : Interceptor
{
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        context.ResponseTrailers.Add("x-trace", name);
        return continuation(request, context);
    }
}

using Grpc.Core;
using Grpc.Core.Interceptors;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>Adds its name to the <c>x-trace</c> trailer before calling on, for every kind of method, so the answer shows the order interceptors ran in.</summary>
public sealed class TracingInterceptor(string name) : Interceptor
{
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        context.ResponseTrailers.Add("x-trace", name);
        return continuation(request, context);
    }

    public override Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        context.ResponseTrailers.Add("x-trace", name);
        return continuation(request, responseStream, context);
    }

    public override Task<TResponse> ClientStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream, ServerCallContext context, ClientStreamingServerMethod<TRequest, TResponse> continuation)
    {
        context.ResponseTrailers.Add("x-trace", name);
        return continuation(requestStream, context);
    }

    public override Task DuplexStreamingServerHandler<TRequest, TResponse>(
        IAsyncStreamReader<TRequest> requestStream, IServerStreamWriter<TResponse> responseStream, ServerCallContext context,
        DuplexStreamingServerMethod<TRequest, TResponse> continuation)
    {
        context.ResponseTrailers.Add("x-trace", name);
        return continuation(requestStream, responseStream, context);
    }
}

using Grpc.Core;
using Grpc.Core.Interceptors;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// Fails the call before the service runs when the request asks for it with <c>x-interceptor-fails</c>: <c>rpc</c>
/// throws an <see cref="RpcException"/> (PERMISSION_DENIED), <c>plain</c> an ordinary exception.
/// </summary>
public sealed class FailingInterceptor : Interceptor
{
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation)
    {
        FailIfAsked(context);
        return continuation(request, context);
    }

    public override Task ServerStreamingServerHandler<TRequest, TResponse>(
        TRequest request, IServerStreamWriter<TResponse> responseStream, ServerCallContext context, ServerStreamingServerMethod<TRequest, TResponse> continuation)
    {
        FailIfAsked(context);
        return continuation(request, responseStream, context);
    }

    private static void FailIfAsked(ServerCallContext context)
    {
        switch (context.RequestHeaders.GetValue("x-interceptor-fails"))
        {
            case "rpc":
                throw new RpcException(new Status(StatusCode.PermissionDenied, "The interceptor refused the call."));
            case "plain":
                throw new InvalidOperationException("The interceptor broke.");
        }
    }
}

using Grpc.Core;
using Grpc.Core.Interceptors;

namespace ProtoHttp.Client.FunctionalTests.Services;

/// <summary>An authorization interceptor: refuses every call that lacks an <c>x-allow</c> header.</summary>
public sealed class AllowHeaderInterceptor : Interceptor
{
    public override Task<TResponse> UnaryServerHandler<TRequest, TResponse>(TRequest request, ServerCallContext context, UnaryServerMethod<TRequest, TResponse> continuation) =>
        context.RequestHeaders.Get("x-allow") is null
            ? throw new RpcException(new Status(StatusCode.PermissionDenied, "The x-allow header is missing."))
            : continuation(request, context);
}

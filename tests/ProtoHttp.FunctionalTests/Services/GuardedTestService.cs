using Grpc.Core;
using Microsoft.AspNetCore.Authorization;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>The test service guarded by attributes, as grpc-dotnet honours them: the class needs a user, Fail an admin.</summary>
[Authorize]
public sealed class GuardedTestService : TestService.TestServiceBase
{
    [AllowAnonymous]
    public override Task<SlowReply> Slow(SlowRequest request, ServerCallContext context) =>
        Task.FromResult(new SlowReply { Completed = true });

    public override Task<ContextReply> Context(ContextRequest request, ServerCallContext context) =>
        Task.FromResult(new ContextReply { User = ProtoHttp.AspNetCore.ServerCallContextExtensions.GetProtoHttpContext(context)!.User.Identity?.Name ?? "" });

    [Authorize(Roles = "admin")]
    public override Task<Empty> Fail(FailRequest request, ServerCallContext context) =>
        throw new RpcException(new Status(StatusCode.NotFound, "reached the service"));
}

using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// The scripted test service's unary methods in a service that is <see cref="IDisposable"/> and not registered in DI,
/// so ProtoHttp makes one per call and must dispose it when the call ends.
/// </summary>
public sealed class DisposableTestService(CallProbe callProbe, DisposalProbe disposalProbe) : TestService.TestServiceBase, IDisposable
{
    private readonly ScriptedTestService _inner = new(callProbe);
    private readonly DisposableInstance _instance = new(disposalProbe);

    public override Task<SlowReply> Slow(SlowRequest request, ServerCallContext context) => _instance.RunAsync(() => _inner.Slow(request, context));

    public override Task<Tree> Echo(Tree request, ServerCallContext context) => _instance.RunAsync(() => _inner.Echo(request, context));

    public override Task<Empty> Fail(FailRequest request, ServerCallContext context) => _instance.RunAsync(() => _inner.Fail(request, context));

    public void Dispose() => _instance.Release();
}

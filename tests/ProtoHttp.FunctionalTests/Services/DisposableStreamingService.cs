using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>
/// The streaming test service's methods in a service that is <see cref="IAsyncDisposable"/> and not registered in DI,
/// so ProtoHttp makes one per call and must dispose it when the call ends.
/// </summary>
public sealed class DisposableStreamingService(StreamProbe streamProbe, DisposalProbe disposalProbe) : StreamingService.StreamingServiceBase, IAsyncDisposable
{
    private readonly StreamingTestService _inner = new(streamProbe);
    private readonly DisposableInstance _instance = new(disposalProbe);

    public override Task Count(CountRequest request, IServerStreamWriter<Tick> responseStream, ServerCallContext context) =>
        _instance.RunAsync(() => _inner.Count(request, responseStream, context));

    public override Task<Summary> Sum(IAsyncStreamReader<Tick> requestStream, ServerCallContext context) =>
        _instance.RunAsync(() => _inner.Sum(requestStream, context));

    public override Task Echo(IAsyncStreamReader<Tick> requestStream, IServerStreamWriter<Tick> responseStream, ServerCallContext context) =>
        _instance.RunAsync(() => _inner.Echo(requestStream, responseStream, context));

    public async ValueTask DisposeAsync()
    {
        await Task.Yield(); // Released asynchronously, as a real IAsyncDisposable would be.
        _instance.Release();
    }
}

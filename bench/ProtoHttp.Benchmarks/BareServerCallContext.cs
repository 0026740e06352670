using Grpc.Core;

namespace ProtoHttp.Benchmarks;

/// <summary>The least a service call needs: the baseline endpoint's stand-in for a host's call context.</summary>
internal sealed class BareServerCallContext : ServerCallContext
{
    protected override string MethodCore => "/ProtoService.SearchService/Search";
    protected override string HostCore => "localhost";
    protected override string PeerCore => "ipv4:127.0.0.1:1";
    protected override DateTime DeadlineCore => DateTime.MaxValue;
    protected override Metadata RequestHeadersCore => [];
    protected override CancellationToken CancellationTokenCore => CancellationToken.None;
    protected override Metadata ResponseTrailersCore => [];
    protected override Status StatusCore { get; set; }
    protected override WriteOptions? WriteOptionsCore { get; set; }
    protected override AuthContext AuthContextCore => new(null, []);

    protected override ContextPropagationToken CreatePropagationTokenCore(ContextPropagationOptions? options) =>
        throw new NotSupportedException();

    protected override Task WriteResponseHeadersAsyncCore(Metadata responseHeaders) => Task.CompletedTask;
}

using ProtoHttp.AspNetCore.Protocols.Native;

namespace ProtoHttp.Tests.Pipeline;

/// <summary>A route's metadata always describes that route, also a copy made with <c>with</c> after the original was described.</summary>
public class CallRouteTests
{
    private readonly PipelineHarness _harness = new();

    [Fact]
    public void TheMetadataDescribesTheRoute()
    {
        var route = _harness.Route("Echo", NativeProtocol.Instance, r => r with { AllowsGet = false, Reads = ["application/json"] });

        Assert.False(route.Metadata.AllowsGet);
        Assert.Equal(["application/json"], route.Metadata.RequestMediaTypes);
        Assert.Same(route.Metadata, route.Metadata); // Made once: the endpoint and every call share it.
    }

    [Fact]
    public void ACopyMadeAfterTheOriginalWasDescribedIsDescribedAsItself()
    {
        var original = _harness.Route("Echo", NativeProtocol.Instance, r => r with { AllowsGet = false, Reads = ["application/json"] });
        var described = original.Metadata;

        var copy = original with { AllowsGet = true, Reads = ["application/xml"] };

        Assert.True(copy.Metadata.AllowsGet);
        Assert.Equal(["application/xml"], copy.Metadata.RequestMediaTypes);
        Assert.NotSame(described, copy.Metadata);
        Assert.Same(described, original.Metadata);
        Assert.False(original.Metadata.AllowsGet);
    }
}

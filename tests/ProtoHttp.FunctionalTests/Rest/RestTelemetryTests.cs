using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using ProtoHttp.AspNetCore;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// A REST call is traced as every ProtoHttp call is (docs/protocol.md section 14): one activity tagged with the RPC
/// conventions' system, service, method and status. Runs in the telemetry collection, alone, since the listener hears
/// every call in the process.
/// </summary>
[Collection(nameof(TelemetryTests))]
public sealed class RestTelemetryTests(RestServers servers) : IClassFixture<RestServers>
{
    [Fact]
    public async Task ARestCallIsOneActivityWithItsMethodAndStatus()
    {
        var activities = new ConcurrentQueue<Activity>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == ProtoHttpInstrumentation.ActivitySourceName,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activities.Enqueue,
        };
        ActivitySource.AddActivityListener(listener);

        using var found = await servers.ProtoHttp.GetAsync("/v1/shelves/s1/books/b1");
        using var missing = await servers.ProtoHttp.GetAsync("/v1/shelves/missing");

        Assert.Equal(HttpStatusCode.OK, found.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        // An activity stops once its call ends, which may be just after the client has the answer.
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (activities.Count(a => a.GetTagItem("rpc.service") as string == "protohttp.tests.library.Library") < 2 && DateTime.UtcNow < deadline)
        {
            await Task.Delay(20);
        }

        var getBook = Assert.Single(activities, a => a.GetTagItem("rpc.method") as string == "GetBook");
        Assert.Equal("protohttp", getBook.GetTagItem("rpc.system"));
        Assert.Equal("protohttp.tests.library.Library", getBook.GetTagItem("rpc.service"));
        Assert.Equal(0, getBook.GetTagItem("rpc.grpc.status_code"));
        var getShelf = Assert.Single(activities, a => a.GetTagItem("rpc.method") as string == "GetShelf");
        Assert.Equal(5, getShelf.GetTagItem("rpc.grpc.status_code"));
    }
}

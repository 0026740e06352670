using OpenQA.Selenium;
using ProtoHttp.BrowserTests.Infrastructure;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.BrowserTests;

/// <summary>
/// The sample page's price feed in real headless Chromium, read by the browser's own EventSource through one address in
/// front of the sample's instances, which share the feed through a real <c>redis-server</c> started by the test: when
/// the instance it reads from is killed, or stopped as a rolling update stops it, the page goes on from another
/// instance by itself, with nothing lost or doubled (docs/protocol.md section 15, docs/deploy.md).
/// </summary>
[Collection(BrowserTestGroup.Name)]
public sealed class ResumeAcrossInstancesTests(BrowserSession session) : BrowserTest(session, waitSeconds: 60)
{
    // Every event the page's EventSource gets, recorded beside the page's own handlers, before the page's scripts run.
    private const string Recorder = """
        window.__feed = { ids: [], opens: 0, gaps: 0 };
        window.EventSource = class extends window.EventSource {
          constructor(url, init) {
            super(url, init);
            this.addEventListener("open", () => window.__feed.opens++);
            this.addEventListener("message", (event) => window.__feed.ids.push(event.lastEventId));
            this.addEventListener("gap", () => window.__feed.gaps++);
          }
        };
        """;

    [BrowserRedisFact]
    public async Task ThePagesPriceFeedGoesOnFromAnotherInstanceWhenItsOwnIsKilledOrStoppedWithNothingLostOrDoubled()
    {
        await using var redis = await RedisServer.StartAsync();
        List<SampleProcess> instances = [];
        var recorder = (Dictionary<string, object?>)Driver.ExecuteCdpCommand("Page.addScriptToEvaluateOnNewDocument", new Dictionary<string, object?> { ["source"] = Recorder })!;
        try
        {
            // Started as docs/deploy.md starts several on one machine: the Redis setting as an argument, then as a variable.
            var (first, firstAddress) = await StartInstanceAsync(redis, asArgument: true);
            instances.Add(first);
            var (second, secondAddress) = await StartInstanceAsync(redis, asArgument: false);
            instances.Add(second);
            await using var balancer = new LoadBalancer(firstAddress);

            SetJavaScript(enabled: true);
            Driver.Navigate().GoToUrl(new Uri(balancer.Address, "/"));
            Wait().Until(d => d.FindElement(By.Id("watch-prices")).Enabled);
            Driver.FindElement(By.Id("watch-prices")).Click();
            WaitForMoreIds(10);

            balancer.Target = secondAddress;
            await first.KillAsync(); // No goodbye: the page's connection just breaks.
            WaitForMoreIds(10);

            var (third, thirdAddress) = await StartInstanceAsync(redis, asArgument: false);
            instances.Add(third);
            balancer.Target = thirdAddress;
            await second.TerminateAsync(); // A rolling update's SIGTERM: the stream ends UNAVAILABLE as it starts to stop.
            WaitForMoreIds(10);
            Assert.Equal("Watching prices…", Driver.FindElement(By.Id("live-status")).Text); // "Reconnecting…" in between.
            Driver.FindElement(By.Id("stop-prices")).Click();

            var ids = Feed<IReadOnlyCollection<object>>("ids").Cast<string>().ToList();
            Assert.Equal(3L, Feed<long>("opens")); // Opened once, then once on each of the other two instances.
            Assert.Equal(0L, Feed<long>("gaps"));
            var log = await redis.PriceFeedIdsAsync();
            var start = Array.IndexOf(log, ids[0]);
            Assert.True(start >= 0, $"{ids[0]} is not in the feed's log.");
            // What the page got is the log from its first tick on: nothing skipped while it moved, nothing twice.
            Assert.Equal(log.Skip(start).Take(ids.Count), ids);
            Assert.Equal(ids.Count, Driver.FindElements(By.CssSelector("#price-ticks li")).Count);
            Assert.False(Driver.FindElement(By.Id("live-error")).Displayed);
            Assert.All(instances, instance => Assert.DoesNotContain("fail:", instance.Output, StringComparison.Ordinal));
        }
        finally
        {
            Driver.ExecuteCdpCommand("Page.removeScriptToEvaluateOnNewDocument", new Dictionary<string, object?> { ["identifier"] = recorder["identifier"] });
            foreach (var instance in instances)
            {
                await instance.DisposeAsync();
            }
        }
    }

    private static async Task<(SampleProcess Process, Uri Address)> StartInstanceAsync(RedisServer redis, bool asArgument)
    {
        var address = new Uri($"http://127.0.0.1:{LoopbackPort.Free()}");
        List<string> arguments = ["--urls", address.ToString(), $"--Grpc:Url=http://127.0.0.1:{LoopbackPort.Free()}", "--PriceTicker:Interval=00:00:00.100"];
        Dictionary<string, string> environment = [];
        if (asArgument)
        {
            arguments.Add($"--PriceTicker:Redis={redis.Configuration}");
        }
        else
        {
            environment["PriceTicker__Redis"] = redis.Configuration;
        }

        return (await SampleProcess.StartAsync(arguments, environment), address);
    }

    private void WaitForMoreIds(int count)
    {
        var target = Feed<long>("ids.length") + count;
        Wait().Until(_ => Feed<long>("ids.length") >= target);
    }

    private T Feed<T>(string property) => (T)Script($"return window.__feed.{property};")!;
}

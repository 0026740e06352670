using Microsoft.AspNetCore.Builder;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>A real topic engine a test starts on a free port with its own folder, kills and starts again.</summary>
public interface ITopicEngineServer : IAsyncDisposable
{
    /// <summary>Points the sample at this engine (<c>PriceTicker:Redis</c> or <c>PriceTicker:Nats</c>).</summary>
    void Configure(WebApplicationBuilder builder);

    /// <summary>Kills the server, as a crash would.</summary>
    Task StopAsync();

    /// <summary>Starts it again on the same port and folder, with what it persisted.</summary>
    Task StartAgainAsync();

    /// <summary>The ids of every entry the price feed's log holds, oldest first.</summary>
    Task<string[]> PriceFeedIdsAsync();
}

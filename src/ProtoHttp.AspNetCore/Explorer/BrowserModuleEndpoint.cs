namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// Marks the endpoint of ProtoHttp's browser module (docs/protocol.md section 15), which the explorer's pages load: the
/// protocol that serves the module puts it on its endpoint, so the explorer finds the module without naming the protocol.
/// </summary>
internal sealed class BrowserModuleEndpoint
{
    public static BrowserModuleEndpoint Instance { get; } = new();

    private BrowserModuleEndpoint()
    {
    }
}

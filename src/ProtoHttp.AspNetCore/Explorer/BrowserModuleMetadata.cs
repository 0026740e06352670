namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// Marks the endpoint that serves a browser module the explorer's pages load for calls a form cannot make (client and
/// bidirectional streams): the explorer finds it by this metadata, so it names no protocol (docs/architecture.md).
/// </summary>
internal sealed class BrowserModuleMetadata
{
    public static readonly BrowserModuleMetadata Instance = new();

    private BrowserModuleMetadata()
    {
    }
}

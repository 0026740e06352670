namespace ProtoHttp.BrowserTests.Infrastructure;

/// <summary>The browser tests share one Chromium and one site, and so run one at a time.</summary>
[CollectionDefinition(Name)]
public sealed class BrowserTestGroup : ICollectionFixture<BrowserSession>
{
    public const string Name = "Browser";
}

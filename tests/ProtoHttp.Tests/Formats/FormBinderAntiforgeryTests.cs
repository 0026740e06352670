using ProtoService;

namespace ProtoHttp.Tests.Formats;

public sealed class FormBinderAntiforgeryTests
{
    [Fact]
    public void TheAntiforgeryTokenFieldIsNoPartOfTheMessage()
    {
        var request = CodecHelpers.Read<SearchRequest>(CodecNames.Form, "query=chai&__RequestVerificationToken=CfDJ8abc%2Bdef");

        Assert.Equal(new SearchRequest { Query = "chai" }, request);
    }

    [Fact]
    public void OtherUnknownKeysAreStill400()
    {
        var error = CodecHelpers.ReadFails(CodecNames.Form, "query=chai&__RequestVerificationToken2=x", SearchRequest.Descriptor);

        Assert.Contains("__RequestVerificationToken2", error.Message, StringComparison.Ordinal);
    }
}

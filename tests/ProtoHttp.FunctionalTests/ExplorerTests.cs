using System.Net;
using System.Net.Http.Headers;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.ExplorerForm;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// The explorer on real Kestrel: the page a browser gets at <c>GET /{file}.proto</c>, its generated form filled and
/// posted as a browser posts it, the .proto text other clients still get, and authorization.
/// </summary>
public sealed class ExplorerTests(ExplorerServerFixture fixture) : IClassFixture<ExplorerServerFixture>
{
    private const string BrowserAccept = XmlAndFormTests.BrowserAccept;
    private const string FilePath = "/explorer_form.proto";

    private readonly SampleServer _server = fixture.Server;

    [Fact]
    public async Task TheGeneratedFormOfEveryFieldKindPostsTheMessageItShows()
    {
        var form = HtmlForm.Find(await PageAsync(FilePath), "FormEcho.Echo");
        Assert.Equal(("post", FilePath + "/Echo"), (form.Method, form.Action));

        var filled = Fill(form, new Dictionary<string, string[]>
        {
            ["a_double"] = ["2.5"], ["a_float"] = ["-1.5"], ["a_int32"] = ["-7"], ["a_int64"] = ["-9000000000"],
            ["a_uint32"] = ["4294967295"], ["a_uint64"] = ["18446744073709551615"], ["a_sint32"] = ["-8"],
            ["a_sint64"] = ["-9000000001"], ["a_fixed32"] = ["9"], ["a_fixed64"] = ["9000000002"], ["a_sfixed32"] = ["-10"],
            ["a_sfixed64"] = ["-9000000003"], ["a_bool"] = ["true"], ["a_string"] = ["text <&> é +"], ["a_bytes"] = ["AQL/"],
            ["mood"] = ["MOOD_BUSY"], ["maybe"] = ["0"], ["maybe_flag"] = ["false"],
            ["address.city"] = ["Lyon"], ["address.zip"] = ["69001"], ["address.corner.name"] = ["north"],
            ["tags[]"] = ["a", "b c"], ["numbers[]"] = ["1", "-2"], ["moods"] = ["MOOD_CALM", "MOOD_BUSY"],
            ["counts[0].key"] = ["x"], ["counts[0].value"] = ["1"], ["counts[1].key"] = ["y"], ["counts[1].value"] = ["-2"],
            ["names[0].key"] = ["-5"], ["names[0].value"] = ["minus five"],
            ["number"] = ["5"],
            ["when"] = ["2024-05-06T07:08:09"], ["how_long"] = ["1.5s"],
            ["int32_wrapper"] = ["0"], ["int64_wrapper"] = ["-1"], ["double_wrapper"] = ["-INF"], ["bool_wrapper"] = ["false"],
            ["string_wrapper"] = ["wrapped"], ["bytes_wrapper"] = ["AA=="],
        });
        var expected = new EveryKind
        {
            ADouble = 2.5, AFloat = -1.5f, AInt32 = -7, AInt64 = -9_000_000_000, AUint32 = uint.MaxValue, AUint64 = ulong.MaxValue,
            ASint32 = -8, ASint64 = -9_000_000_001, AFixed32 = 9, AFixed64 = 9_000_000_002, ASfixed32 = -10, ASfixed64 = -9_000_000_003,
            ABool = true, AString = "text <&> é +", ABytes = ByteString.CopyFrom(1, 2, 255), Mood = Mood.Busy, Maybe = 0, MaybeFlag = false,
            Address = new Address { City = "Lyon", Zip = 69001, Corner = new Corner { Name = "north" } },
            Tags = { "a", "b c" }, Numbers = { 1, -2 }, Moods = { Mood.Calm, Mood.Busy },
            Counts = { ["x"] = 1, ["y"] = -2 }, Names = { [-5] = "minus five" },
            Number = 5,
            When = Timestamp.FromDateTime(new DateTime(2024, 5, 6, 7, 8, 9, DateTimeKind.Utc)), HowLong = Duration.FromTimeSpan(TimeSpan.FromSeconds(1.5)),
            Int32Wrapper = 0, Int64Wrapper = -1, DoubleWrapper = double.NegativeInfinity, BoolWrapper = false, StringWrapper = "wrapped",
            BytesWrapper = ByteString.CopyFrom(0),
        };

        // Every field but the repeated message (which forms cannot carry) has a control, and the test filled them all
        // but the oneof's other members and the empty rows a page without JavaScript offers.
        var named = form.Controls.Select(c => c.Name.Split('[', '.')[0]).ToHashSet();
        Assert.Equal(EveryKind.Descriptor.Fields.InDeclarationOrder().Select(f => f.Name).Where(n => n != "addresses").Order(), named.Order());
        Assert.Equal(["place.city", "place.corner.name", "place.zip", "text"], form.Controls.Where(c => c.Filled.Count == 0 && !c.Name.Contains('[', StringComparison.Ordinal)).Select(c => c.Name).Order());

        using var request = new HttpRequestMessage(HttpMethod.Post, form.Action) { Content = new FormUrlEncodedContent(filled) };
        request.Headers.Accept.ParseAdd("application/x-protobuf");
        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expected, EveryKind.Parser.ParseFrom(await response.Content.ReadAsByteArrayAsync()));
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task ThePageShowsTheCommentsHtmlEncodedAndNamesWhatAFormCannotCarry()
    {
        var page = await PageAsync(FilePath);

        Assert.Contains("Answers with the request it received: &lt;script&gt;alert(1)&lt;/script&gt; &amp; nothing else.", page, StringComparison.Ordinal);
        Assert.Contains("Echoes &lt;i&gt;every&lt;/i&gt; field.", page, StringComparison.Ordinal);
        Assert.Contains("Any text, &lt;b&gt;encoded&lt;/b&gt; &amp; shown as written.", page, StringComparison.Ordinal);
        Assert.DoesNotContain("<script>alert", page, StringComparison.Ordinal);
        Assert.Contains("a repeated message, which a form cannot carry", page, StringComparison.Ordinal);
        Assert.Contains("<a id=\"px-source\" href=\"/explorer_form.proto?format=text\">", page, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("*/*")] // curl
    [InlineData("text/plain")]
    [InlineData("text/*")]
    [InlineData("text/html;q=0.5, text/plain")]
    [InlineData("text/html, text/plain")] // text/html not preferred over text/plain
    [InlineData("application/xml")]
    public async Task ClientsThatDoNotPreferHtmlStillGetTheProtoTextByteForByte(string? accept)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, FilePath);
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal("text/plain; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        Assert.Equal(await File.ReadAllBytesAsync(Path.Combine(RepositoryRoot.Path, "tests/ProtoHttp.FunctionalTests/Protos/explorer_form.proto")),
            await response.Content.ReadAsByteArrayAsync());
    }

    [Fact]
    public async Task TheSourceLinkAndTheDescriptorSetAnswerABrowserToo()
    {
        using var text = await GetAsync(FilePath + "?format=text", BrowserAccept);
        using var descriptors = await GetAsync(FilePath, "application/x-protobuf");

        Assert.Equal("text/plain; charset=utf-8", text.Content.Headers.ContentType?.ToString());
        Assert.StartsWith("// A service for the explorer's tests", await text.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        var set = FileDescriptorSet.Parser.ParseFrom(await descriptors.Content.ReadAsByteArrayAsync());
        Assert.Contains(set.File, f => f.Name == "explorer_form.proto");
    }

    [Fact]
    public async Task AProtectedServiceShowsItsPageOnlyToAUserAllowedToCallIt()
    {
        using var anonymous = await GetAsync(ExplorerServerFixture.SecureFile, BrowserAccept);
        using var signedIn = await GetAsync(ExplorerServerFixture.SecureFile, BrowserAccept, user: "ada");

        Assert.Equal(HttpStatusCode.Unauthorized, anonymous.StatusCode);
        Assert.Contains(_server.Logs.Entries, e => e.EventId.Name == "ExplorerPageRefused"
            && e.Message == "/secure-form/explorer_form.proto: no explorer page, since the user may call none of the file's 1 methods.");
        Assert.DoesNotContain("FormEcho", await anonymous.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, signedIn.StatusCode);
        Assert.Equal("/secure-form/explorer_form.proto/Echo", HtmlForm.Find(await signedIn.Content.ReadAsStringAsync(), "FormEcho.Echo").Action);
    }

    [Fact]
    public async Task AServiceMappedInARouteGroupHasItsPageAndFormUnderTheGroup()
    {
        var page = await PageAsync(ExplorerServerFixture.GroupPrefix + FilePath);

        Assert.Equal("/v2/explorer_form.proto/Echo", HtmlForm.Find(page, "FormEcho.Echo").Action);
        Assert.Contains("<a id=\"px-source\" href=\"/v2/explorer_form.proto?format=text\">", page, StringComparison.Ordinal);
        Assert.Contains("<script type=\"module\" src=\"/protohttp/explorer.js\"></script>", page, StringComparison.Ordinal);
        Assert.Contains("<a href=\"/v2/explorer_form.proto\">explorer_form.proto</a>", await (await GetAsync("/protohttp", BrowserAccept)).Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheIndexListsOnlyWhatTheUserMayCall()
    {
        using var anonymous = await GetAsync("/protohttp", BrowserAccept);
        using var signedIn = await GetAsync("/protohttp", BrowserAccept, user: "ada");
        var anonymousPage = await anonymous.Content.ReadAsStringAsync();
        var signedInPage = await signedIn.Content.ReadAsStringAsync();

        Assert.Contains("<a href=\"/explorer_form.proto\">explorer_form.proto</a>", anonymousPage, StringComparison.Ordinal);
        Assert.Contains("<a href=\"/ProtoService.proto\">ProtoService.proto</a>", anonymousPage, StringComparison.Ordinal);
        Assert.DoesNotContain("/secure-form/", anonymousPage, StringComparison.Ordinal);
        Assert.DoesNotContain("/secure/test_service.proto", anonymousPage, StringComparison.Ordinal);
        Assert.Contains("<a href=\"/secure-form/explorer_form.proto\">", signedInPage, StringComparison.Ordinal);
        Assert.Contains("<a href=\"/secure/test_service.proto\">", signedInPage, StringComparison.Ordinal);
        // A file whose .proto is not served has no page to link to; its methods are still listed.
        Assert.Contains("<h2>not_embedded.proto</h2><p class=\"px-hint\">Its page is off with its .proto (ServeProtoFile = false).</p>", anonymousPage, StringComparison.Ordinal);
        Assert.Contains("<li><code>Echo</code>", anonymousPage, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("/protohttp/explorer.js", "text/javascript; charset=utf-8")]
    [InlineData("/protohttp/explorer-dom.js", "text/javascript; charset=utf-8")]
    [InlineData("/protohttp/explorer-request.js", "text/javascript; charset=utf-8")]
    [InlineData("/protohttp/explorer-answer.js", "text/javascript; charset=utf-8")]
    [InlineData("/protohttp/explorer-commands.js", "text/javascript; charset=utf-8")]
    [InlineData("/protohttp/explorer-socket.js", "text/javascript; charset=utf-8")]
    [InlineData("/protohttp/explorer.css", "text/css; charset=utf-8")]
    public async Task TheScriptsAndStylesheetAreServedByTheLibraryWithAnETag(string path, string type)
    {
        using var first = await _server.Client.GetAsync(path);
        using var again = new HttpRequestMessage(HttpMethod.Get, path);
        again.Headers.IfNoneMatch.Add(first.Headers.ETag!);
        using var revalidated = await _server.Client.SendAsync(again);

        Assert.Equal(type, first.Content.Headers.ContentType?.ToString());
        Assert.True((await first.Content.ReadAsByteArrayAsync()).Length is > 200 and < 16_000);
        Assert.Equal(HttpStatusCode.NotModified, revalidated.StatusCode);
    }

    [Fact]
    public async Task PagesAllowOnlyTheirOwnScriptAndStyle()
    {
        using var response = await GetAsync(FilePath, BrowserAccept);

        Assert.Equal("text/html; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        Assert.Contains("script-src 'self'", response.Headers.GetValues("Content-Security-Policy").Single(), StringComparison.Ordinal);
        Assert.Contains("Accept", response.Headers.Vary);
    }

    /// <summary>Fills each control named in <paramref name="values"/> (rows in order) and returns what a browser would post.</summary>
    private static List<KeyValuePair<string, string>> Fill(HtmlForm form, Dictionary<string, string[]> values)
    {
        var rowsUsed = new Dictionary<string, int>();
        foreach (var control in form.Controls)
        {
            if (!values.TryGetValue(control.Name, out var value))
            {
                continue;
            }

            if (control.Name.EndsWith("[]", StringComparison.Ordinal))
            {
                var row = rowsUsed.GetValueOrDefault(control.Name);
                rowsUsed[control.Name] = row + 1;
                if (row < value.Length)
                {
                    control.Filled.Add(value[row]);
                }
            }
            else
            {
                control.Filled.AddRange(value);
            }
        }

        Assert.Equal(values.Keys.Order(), form.Controls.Where(c => c.Filled.Count > 0).Select(c => c.Name).Distinct().Order());
        return form.Pairs();
    }

    private async Task<string> PageAsync(string path)
    {
        using var response = await GetAsync(path, BrowserAccept);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        return await response.Content.ReadAsStringAsync();
    }

    private Task<HttpResponseMessage> GetAsync(string path, string accept, string? user = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.TryAddWithoutValidation("Accept", accept);
        if (user is not null)
        {
            request.Headers.Add("X-Test-User", user);
        }

        return _server.Client.SendAsync(request);
    }
}

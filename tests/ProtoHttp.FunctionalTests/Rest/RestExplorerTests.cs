using System.Net;
using System.Text.RegularExpressions;
using Google.Protobuf.WellKnownTypes;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Library;
using ProtoHttp.FunctionalTests.Services;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// The explorer's forms for REST routes (docs/explorer.md): one per binding, with the path's variables, the query's
/// fields (those neither the path nor the body binds) and the body; a GET rule without variables is a plain GET form
/// that calls its route as a browser without JavaScript submits it. The script's side is tested in Chromium
/// (ProtoHttp.BrowserTests' RestExplorerCallTests).
/// </summary>
public sealed partial class RestExplorerTests : IAsyncLifetime
{
    private WebApplication _app = null!;
    private HttpClient Client { get; set; } = null!;

    public async Task InitializeAsync()
    {
        _app = await RestServers.StartAsync(
            builder => builder.Services.AddProtoHttp(),
            app =>
            {
                app.MapProtoService<LibraryService>();
                app.MapProtoHttpExplorer();
            });
        Client = new HttpClient { BaseAddress = new Uri(_app.Urls.First()) };
    }

    public async Task DisposeAsync()
    {
        Client.Dispose();
        await _app.DisposeAsync();
    }

    [Fact]
    public async Task EveryBindingHasAFormWithItsVerbAndTemplate()
    {
        var page = await PageAsync();

        var sections = RestSection().Matches(page).Select(m => $"{m.Groups["verb"].Value} {m.Groups["template"].Value}").ToList();
        Assert.Equal(16, sections.Count);
        Assert.Contains("GET /v1/{name=shelves/*/books/*}", sections);
        Assert.Contains("GET /v1/books/{name=**}", sections);
        Assert.Contains("PATCH /v1/{book.name=shelves/*/books/*}", sections);
        Assert.Contains("REPORT /v1/shelves/{shelf}/report", sections);
    }

    [Fact]
    public async Task AGetRuleWithoutVariablesIsAPlainGetFormThatCallsItsRoute()
    {
        var form = HtmlForm.Find(await PageAsync(), "Library.SearchBooks-rest-1");
        Assert.Equal(("get", "/v1/books:search"), (form.Method, form.Action));
        Assert.Equal(SearchRequest.Descriptor.Fields.InDeclarationOrder().Select(f => f.Name).Order(), form.Controls.Select(c => c.Name.Split('[', '.')[0]).Distinct().Order());

        Fill(form, "query", "dune");
        Fill(form, "genre", "HISTORY");
        Fill(form, "min_pages", "300");
        Fill(form, "page_range.from", "2");
        Fill(form, "max_results", "9007199254740993");
        form.Controls.First(c => c.Name == "tags[]").Filled.Add("sand");
        using var request = new HttpRequestMessage(HttpMethod.Get, form.Action + "?" + await new FormUrlEncodedContent(form.Pairs()).ReadAsStringAsync());
        request.Headers.Accept.ParseAdd("application/x-protobuf");
        using var response = await Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var received = SearchResponse.Parser.ParseFrom(await response.Content.ReadAsByteArrayAsync()).Request;
        // A browser submits the empty text inputs too: the StringValue author binds "", every other empty one nothing.
        Assert.Equal(
            new SearchRequest { Query = "dune", Genre = Genre.History, MinPages = 300, PageRange = new Library.Range { From = 2 }, MaxResults = 9007199254740993, Tags = { "sand" }, Author = "" },
            received);
    }

    [Fact]
    public async Task PathVariablesAndOtherVerbsNeedTheScriptAndSaySo()
    {
        var page = await PageAsync();

        var getShelf = Section(page, "Library.GetShelf-rest-1");
        Assert.Contains("data-path-variable=\"shelf\" required", getShelf, StringComparison.Ordinal);
        Assert.DoesNotContain("px-rest-query", getShelf, StringComparison.Ordinal); // the path binds the only field
        Assert.Contains("<button type=\"submit\" disabled data-needs-script>", getShelf, StringComparison.Ordinal);
        Assert.Contains("puts the path's variables into the URL with JavaScript", getShelf, StringComparison.Ordinal);
        var getShelfForm = HtmlForm.Find(page, "Library.GetShelf-rest-1");
        Assert.Equal(("post", ""), (getShelfForm.Method, getShelfForm.Action));

        var getBook = Section(page, "Library.GetBook-rest-1");
        Assert.Contains("data-path-variable=\"name\" required placeholder=\"shelves/*/books/*\"", getBook, StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheQueryLeavesOutWhatThePathAndTheBodyBindAndTheBodyIsItsJson()
    {
        var page = await PageAsync();

        // POST /v1/shelves/{shelf}/books, body "book": the query is book_id alone; the body the Book's JSON.
        var create = HtmlForm.Find(page, "Library.CreateBook-rest-1");
        Assert.Equal(["book_id"], create.Controls.Where(c => c.Name.Length > 0).Select(c => c.Name));
        var body = create.Controls.Single(c => c.Element == "textarea");
        Assert.Contains("px-rest-body", body.Attributes["class"], StringComparison.Ordinal);
        Assert.Contains("&quot;title&quot;: &quot;&quot;", Section(page, "Library.CreateBook-rest-1"), StringComparison.Ordinal);

        // PATCH /v1/{book.name=...}, body "book": update_mask alone in the query.
        Assert.Equal(["update_mask"], HtmlForm.Find(page, "Library.UpdateBook-rest-1").Controls.Where(c => c.Name.Length > 0).Select(c => c.Name));

        // DELETE /v1/{name=...}: no body, force in the query.
        var delete = Section(page, "Library.DeleteBook-rest-1");
        Assert.Contains("name=\"force\"", delete, StringComparison.Ordinal);
        Assert.DoesNotContain("px-rest-body", delete, StringComparison.Ordinal);

        // PUT /v1/shelves/{id}, body "*": no query at all, the whole Shelf as the body.
        var put = Section(page, "Library.PutShelf-rest-1");
        Assert.DoesNotContain("px-rest-query", put, StringComparison.Ordinal);
        Assert.Contains("&quot;bookCount&quot;: 0", put, StringComparison.Ordinal);

        // body "cover", a google.api.HttpBody: raw text and its content type.
        var upload = Section(page, "Library.UploadCover-rest-1");
        Assert.Contains("data-raw", upload, StringComparison.Ordinal);
        Assert.Contains("class=\"px-rest-content-type\"", upload, StringComparison.Ordinal);
    }

    private static void Fill(HtmlForm form, string name, string value) => form.Controls.Single(c => c.Name == name).Filled.Add(value);

    private static string Section(string page, string id)
    {
        var start = page.IndexOf($"<section class=\"px-rest\" id=\"{id}\"", StringComparison.Ordinal);
        Assert.True(start >= 0, $"The page has no REST section {id}.");
        return page[start..(page.IndexOf("</section>", start, StringComparison.Ordinal) + "</section>".Length)];
    }

    private async Task<string> PageAsync()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/library.proto");
        request.Headers.TryAddWithoutValidation("Accept", XmlAndFormTests.BrowserAccept);
        using var response = await Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html; charset=utf-8", response.Content.Headers.ContentType?.ToString());
        return await response.Content.ReadAsStringAsync();
    }

    [GeneratedRegex("<section class=\"px-rest\" id=\"[^\"]+\" data-verb=\"(?<verb>[^\"]+)\" data-template=\"(?<template>[^\"]+)\"")]
    private static partial Regex RestSection();
}

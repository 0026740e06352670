using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Google.Api;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Google.Protobuf.WellKnownTypes;
using ProtoHttp.FunctionalTests.Library;

namespace ProtoHttp.FunctionalTests.Rest;

/// <summary>
/// The same generated calls sent to the Library served by ProtoHttp's REST routes and by gRPC JSON transcoding
/// (docs/protocol.md section 14): each answers with the same HTTP status, and a success with the same message (JSON
/// parsed as the answer's message type and compared as messages, so key order and default values do not matter).
/// </summary>
public sealed class RestTranscodingParityTests(RestServers servers) : IClassFixture<RestServers>
{
    /// <summary>One call: its verb, path and query, JSON body (or another body with its type), and the answer's type (of each element of a JSON array where <c>Repeated</c>).</summary>
    public sealed record RestCall(string Verb, string Target, string? Body = null, MessageDescriptor? Answer = null, string ContentType = "application/json", bool Repeated = false)
    {
        public override string ToString() => $"{Verb} {Target}";
    }

    public static TheoryData<RestCall> Calls => new()
    {
        // A single-segment variable; one that names nothing found; percent-encoding other than %2F.
        new("GET", "/v1/shelves/s1", Answer: Shelf.Descriptor),
        new("GET", "/v1/shelves/missing", Answer: Shelf.Descriptor),
        new("GET", "/v1/shelves/a%20b%C3%A9", Answer: Shelf.Descriptor),
        // Query parameters by proto and JSON names beside a path variable.
        new("GET", "/v1/shelves/s1/books?page_size=2&page_token=t", Answer: ListBooksResponse.Descriptor),
        new("GET", "/v1/shelves/s1/books?pageSize=2&pageToken=t", Answer: ListBooksResponse.Descriptor),
        // A query parameter that names a path variable, and one that names nothing: the path wins, the unknown is ignored.
        new("GET", "/v1/shelves/s1/books?shelf=other&page_size=1&no_such_field=1", Answer: ListBooksResponse.Descriptor),
        // A variable over several segments, and the additional binding with `**`.
        new("GET", "/v1/shelves/s1/books/b1", Answer: Book.Descriptor),
        new("GET", "/v1/books/shelves/s1/books/b1", Answer: Book.Descriptor),
        new("GET", "/v1/books/shelves/s1/books/missing", Answer: Book.Descriptor),
        // body: "field" with the rest from the path and the query.
        new("POST", "/v1/shelves/s1/books?book_id=b9", """{"title":"T","pages":3,"genre":"FICTION","tags":["x"],"published":"2024-01-02T03:04:05Z","rating":5}""", Book.Descriptor),
        // A nested field path bound by the template into the body's field, a FieldMask from the query.
        new("PATCH", "/v1/shelves/s1/books/b1?update_mask=title,author", """{"title":"New","author":"A"}""", Book.Descriptor),
        new("PATCH", "/v1/shelves/s1/books/b1?updateMask=title", """{"title":"New"}""", Book.Descriptor),
        // DELETE, an empty answer, an error status from the service, a bool from the query.
        new("DELETE", "/v1/shelves/s1/books/b1", Answer: Empty.Descriptor),
        new("DELETE", "/v1/shelves/s1/books/locked", Answer: Empty.Descriptor),
        new("DELETE", "/v1/shelves/s1/books/locked?force=true", Answer: Empty.Descriptor),
        // A custom verb suffix with body: "*".
        new("POST", "/v1/shelves/s1/books/b1:move", """{"otherShelf":"shelves/s2"}""", Book.Descriptor),
        // PUT with body: "*", where the path binds a field the body also names.
        new("PUT", "/v1/shelves/s7", """{"theme":"t","bookCount":2}""", Shelf.Descriptor),
        // Query parameters of every kind.
        new("GET", "/v1/books:search?query=q%20r&max_results=9007199254740992&min_score=0.5", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?genre=HISTORY&genres=FICTION&genres=SCIENCE", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?genre=2&genres=1", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?tags=x&tags=y&years=1999&years=2001", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?min_pages=300&author=me&in_print=true", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?minPages=300&inPrint=false", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?published_after=2024-01-02T03:04:05Z&max_read_time=90s", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?read_mask=title,author", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?page_range.from=1&page_range.to=5", Answer: SearchResponse.Descriptor),
        new("GET", "/v1/books:search?pageRange.from=2", Answer: SearchResponse.Descriptor),
        // response_body: a repeated field (compared as JSON), and a message field.
        new("GET", "/v1/shelves/s1/titles?page_size=2", Answer: Book.Descriptor, Repeated: true),
        new("GET", "/v1/shelves/s1/books/b1/shelf", Answer: Shelf.Descriptor),
        // google.api.HttpBody as the body field.
        new("POST", "/v1/shelves/s1/books/b1/cover", "raw cover bytes", Book.Descriptor, ContentType: "image/x-test"),
        // A custom HTTP method.
        new("REPORT", "/v1/shelves/s1/report", Answer: Shelf.Descriptor),
        // Bad input and the wrong verb: the same status.
        new("GET", "/v1/shelves/s1/books?page_size=abc", Answer: ListBooksResponse.Descriptor),
        new("GET", "/v1/books:search?genre=NO_SUCH_GENRE", Answer: SearchResponse.Descriptor),
        new("POST", "/v1/shelves/s1/books?book_id=b9", """{"title":""", Book.Descriptor),
        // A multi-segment variable keeps %2F as sent, in both.
        new("GET", "/v1/books/shelves/a%2Fb/books/c", Answer: Book.Descriptor),
        new("POST", "/v1/shelves/s1", "{}", Shelf.Descriptor),
        new("GET", "/v1/nothing/here", Answer: Shelf.Descriptor),
    };

    [Theory]
    [MemberData(nameof(Calls))]
    public async Task BothAnswerTheSame(RestCall call)
    {
        using var ours = await SendAsync(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);
        var oursText = await ours.Content.ReadAsStringAsync();
        var theirsText = await theirs.Content.ReadAsStringAsync();

        Assert.True(theirs.StatusCode == ours.StatusCode, $"transcoding {(int)theirs.StatusCode} {theirsText}; ProtoHttp {(int)ours.StatusCode} {oursText}");
        if (ours.StatusCode != HttpStatusCode.OK)
        {
            Assert.True((int)ours.StatusCode >= 400 && (int)ours.StatusCode < 500, oursText);
            return;
        }

        Assert.Equal("application/json", ours.Content.Headers.ContentType?.MediaType);
        var answer = call.Answer!;
        if (call.Repeated)
        {
            Assert.Equal(Elements(theirsText, answer), Elements(oursText, answer));
            Assert.NotEmpty(Elements(oursText, answer));
        }
        else
        {
            Assert.Equal(JsonParser.Default.Parse(theirsText, answer), JsonParser.Default.Parse(oursText, answer));
        }
    }

    private static List<IMessage> Elements(string jsonArray, MessageDescriptor type) =>
        [.. JsonNode.Parse(jsonArray)!.AsArray().Select(element => JsonParser.Default.Parse(element!.ToJsonString(), type))];

    [Fact]
    public async Task HttpBodyAnswersAreTheSameBytesAndType()
    {
        var call = new RestCall("GET", "/v1/shelves/s1/books/b1/cover");
        using var ours = await SendAsync(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal(HttpStatusCode.OK, ours.StatusCode);
        Assert.Equal(theirs.StatusCode, ours.StatusCode);
        Assert.Equal("image/x-test", ours.Content.Headers.ContentType?.MediaType);
        Assert.Equal(theirs.Content.Headers.ContentType?.MediaType, ours.Content.Headers.ContentType?.MediaType);
        Assert.Equal(await theirs.Content.ReadAsByteArrayAsync(), await ours.Content.ReadAsByteArrayAsync());
        Assert.Equal("cover of shelves/s1/books/b1", await ours.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task ServerStreamsCarryTheSameMessages()
    {
        var call = new RestCall("GET", "/v1/shelves/s1:watch?count=3");
        using var ours = await SendAsync(servers.ProtoHttp, call);
        using var theirs = await SendAsync(servers.Transcoding, call);

        Assert.Equal(HttpStatusCode.OK, ours.StatusCode);
        Assert.Equal(theirs.StatusCode, ours.StatusCode);
        // Transcoding writes the messages back to back; ProtoHttp's lines carry each as {"result": ...} (docs/protocol.md section 10).
        Assert.Equal("application/x-ndjson", ours.Content.Headers.ContentType?.MediaType);
        var expected = JsonValues(await theirs.Content.ReadAsStringAsync()).Select(json => JsonParser.Default.Parse<Book>(json)).ToList();
        var actual = (await ours.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries)
            .Select(line => JsonNode.Parse(line)!["result"]!.ToJsonString())
            .Select(json => JsonParser.Default.Parse<Book>(json)).ToList();
        Assert.Equal(3, actual.Count);
        Assert.Equal(expected, actual);
    }

    public static async Task<HttpResponseMessage> SendAsync(HttpClient client, RestCall call)
    {
        using var request = new HttpRequestMessage(new HttpMethod(call.Verb), call.Target);
        if (call.Body is not null)
        {
            request.Content = new ByteArrayContent(Encoding.UTF8.GetBytes(call.Body));
            request.Content.Headers.TryAddWithoutValidation("Content-Type", call.ContentType);
        }

        return await client.SendAsync(request);
    }

    /// <summary>The JSON values of transcoding's stream, written back to back.</summary>
    public static IEnumerable<string> JsonValues(string text)
    {
        var values = new List<string>();
        var reader = new Utf8JsonReader(Encoding.UTF8.GetBytes(text), new JsonReaderOptions { AllowMultipleValues = true });
        while (reader.Read())
        {
            using var document = JsonDocument.ParseValue(ref reader);
            values.Add(document.RootElement.GetRawText());
        }

        return values;
    }
}

using System.Buffers.Binary;
using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests.OpenApi;

/// <summary>
/// What the sample tells its users, taken at its word on real Kestrel: every operation of its OpenAPI document (each
/// path, verb, request media type and documented response media type) and every form and client-stream hint of its
/// explorer pages, called as described. None may answer 405, 406 or 415; each answer's status and Content-Type must be
/// among those the document gives for the operation. The test reads the document and the pages and keeps no list of
/// its own, so it holds the description to whatever it comes to say. A codec added from this project
/// (<see cref="Base64ProtobufCodec"/>) is registered, so its media types, unary, Connect and envelopes, are among those
/// called as described.
/// </summary>
public sealed partial class DocumentedOperationsTests : IAsyncLifetime
{
    private const string BrowserAccept = XmlAndFormTests.BrowserAccept;
    private static readonly int[] Refusals = [405, 406, 415];

    private SampleServer _server = null!;
    private HttpClient _http2 = null!;

    public async Task InitializeAsync()
    {
        // The sample's services alone, as its users get them, with an app's own codec added; the price feed ticks
        // often, so a feed's status, which comes with its first record, comes at once.
        _server = await SampleServer.StartAsync(mapTestServices: false, configure: builder =>
        {
            builder.Configuration["PriceTicker:Interval"] = "00:00:00.05";
            builder.Services.AddProtoHttp(o => o.Codecs.Add(new Base64ProtobufCodec()));
        });
        _http2 = _server.CreateHttp2Client();
    }

    public async Task DisposeAsync()
    {
        _http2.Dispose();
        await _server.DisposeAsync();
    }

    [Fact]
    public async Task EveryOperationOfTheOpenApiDocumentAnswersAsDocumented()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);
        var failures = new List<string>();
        var operations = 0;
        var typesCalled = new HashSet<string?>();
        foreach (var path in document.Paths.EnumerateObject())
        {
            foreach (var operation in path.Value.EnumerateObject())
            {
                operations++;
                var verb = new HttpMethod(operation.Name.ToUpperInvariant());
                var target = path.Name + QueryString(operation.Value);
                var responses = operation.Value.GetProperty("responses");
                foreach (var requestType in ContentTypes(operation.Value, "requestBody"))
                {
                    foreach (var accept in ContentTypes(responses, "200"))
                    {
                        typesCalled.UnionWith([requestType, accept]);
                        var call = () => Request(verb, target, requestType is null ? null : Body(requestType), accept);
                        if (await CheckAsync(call, responses) is { } failure)
                        {
                            failures.Add($"{verb} {target} ({requestType ?? "no body"}, Accept: {accept ?? "none"}): {failure}");
                        }
                    }
                }
            }
        }

        Assert.True(operations > 0, "The document lists no operation.");
        Assert.True(failures.Count == 0, string.Join('\n', failures));
        // The added codec was among what the document offered, and so was called: unary, Connect, and its envelopes.
        Assert.Superset(new HashSet<string?> { Base64ProtobufCodec.MediaType, "application/b64", "application/connect+b64" }, typesCalled);
        Assert.All(await _server.Logs.ErrorsOnceEndedAsync(), e => Assert.True(IsEmptySearch(e), e.Message));
    }

    [Fact]
    public async Task EveryExplorerFormAndClientStreamHintCallsItsMethodAsTheyShow()
    {
        var document = await OpenApiDocument.GetAsync(_server.Client);
        var files = FileLink().Matches(await PageAsync("/protohttp")).Select(m => WebUtility.HtmlDecode(m.Groups[1].Value)).ToList();
        Assert.NotEmpty(files);
        var failures = new List<string>();
        var calls = 0;
        foreach (var file in files)
        {
            var page = await PageAsync(file);
            foreach (Match article in MethodArticle().Matches(page))
            {
                var (id, html) = (article.Groups["id"].Value, article.Groups["html"].Value);
                if (html.Contains("<form", StringComparison.Ordinal))
                {
                    // The form as a browser submits it, to its action and to each button's formaction (the suffix routes,
                    // which the document names in its descriptions instead of listing).
                    var form = HtmlForm.Find(page, id);
                    var verb = form.Method == "get" ? HttpMethod.Get : HttpMethod.Post;
                    var query = verb == HttpMethod.Get
                        ? "?" + string.Join('&', form.Pairs().Select(p => $"{Uri.EscapeDataString(p.Key)}={Uri.EscapeDataString(p.Value)}"))
                        : "";
                    foreach (var target in FormAction().Matches(html).Select(m => WebUtility.HtmlDecode(m.Groups[1].Value)).Prepend(form.Action))
                    {
                        calls++;
                        var call = () => Request(verb, target + query, verb == HttpMethod.Get ? null : new FormUrlEncodedContent(form.Pairs()), BrowserAccept);
                        if (await CheckAsync(call, Documented(document, target, verb)) is { } failure)
                        {
                            failures.Add($"{id}: {verb} {target}: {failure}");
                        }
                    }

                    continue;
                }

                // A client stream: the page names the verb and route, the media types of its body, and HTTP/2 where a
                // call needs it.
                var route = Route().Match(html);
                var types = MediaTypeCode().Matches(html).Select(m => WebUtility.HtmlDecode(m.Groups[1].Value)).ToList();
                if (!route.Success || types.Count == 0)
                {
                    failures.Add($"{id}: no form, and no route and media types to call it with");
                    continue;
                }

                var (streamVerb, streamRoute) = (new HttpMethod(route.Groups["verb"].Value), WebUtility.HtmlDecode(route.Groups["route"].Value));
                foreach (var type in types)
                {
                    calls++;
                    var call = () => Request(streamVerb, streamRoute, Body(type), accept: null);
                    if (await CheckAsync(call, Documented(document, streamRoute, streamVerb), html.Contains("HTTP/2", StringComparison.Ordinal)) is { } failure)
                    {
                        failures.Add($"{id}: {streamVerb} {streamRoute} ({type}): {failure}");
                    }
                }
            }
        }

        Assert.True(calls > 0, "The explorer pages hold no form and no hint.");
        Assert.True(failures.Count == 0, string.Join('\n', failures));
    }

    /// <summary>
    /// Makes a call and says what is wrong with its answer, or null when it is as described: never a refusal (405,
    /// 406, 415, or a 505 nothing announced); where <paramref name="responses"/> describe the route, a status they list
    /// and one of its media types. A 505 the description lists sends the call again over HTTP/2, where it must answer
    /// as described.
    /// </summary>
    private async Task<string?> CheckAsync(Func<HttpRequestMessage> call, JsonElement? responses, bool http2 = false)
    {
        using var request = call();
        if (http2)
        {
            request.Version = HttpVersion.Version20;
            request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
        }

        // Headers only: a stream's status and type come first, and the price feed never ends.
        using var response = await (http2 ? _http2 : _server.Client).SendAsync(request, HttpCompletionOption.ResponseHeadersRead);
        var status = (int)response.StatusCode;
        if (status == 505 && !http2 && responses is { } listed && listed.TryGetProperty("505", out _))
        {
            return await CheckAsync(call, responses, http2: true);
        }

        if (Refusals.Contains(status) || status == 505)
        {
            return $"{status} {await response.Content.ReadAsStringAsync()}";
        }

        if (responses is not { } described)
        {
            return null;
        }

        if (!described.TryGetProperty(status.ToString(CultureInfo.InvariantCulture), out var documented)
            && !(status >= 400 && described.TryGetProperty("default", out documented)))
        {
            return $"{status}, a status the operation does not list: {await response.Content.ReadAsStringAsync()}";
        }

        var types = ContentTypes(documented).Where(t => t is not null).ToList();
        var type = response.Content.Headers.ContentType?.MediaType;
        return types.Count == 0 || types.Contains(type)
            ? null
            : $"{status} in {type ?? "no type"}, not in {string.Join(", ", types)}: {await response.Content.ReadAsStringAsync()}";
    }

    private static HttpRequestMessage Request(HttpMethod verb, string target, HttpContent? content, string? accept)
    {
        var request = new HttpRequestMessage(verb, target) { Content = content };
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        return request;
    }

    /// <summary>The responses the document gives for a route and verb, or null for a route it does not list (a suffix route).</summary>
    private static JsonElement? Documented(OpenApiDocument document, string route, HttpMethod verb) =>
        document.Paths.TryGetProperty(route, out var path) && path.TryGetProperty(verb.Method.ToLowerInvariant(), out var operation)
            ? operation.GetProperty("responses")
            : null;

    private async Task<string> PageAsync(string path)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.TryAddWithoutValidation("Accept", BrowserAccept);
        using var response = await _server.Client.SendAsync(request);
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
        return await response.Content.ReadAsStringAsync();
    }

    /// <summary>The media types of <paramref name="owner"/>'s <paramref name="property"/> (a request body or a response), or one null for none.</summary>
    private static List<string?> ContentTypes(JsonElement owner, string property) =>
        owner.TryGetProperty(property, out var element) ? ContentTypes(element) : [null];

    private static List<string?> ContentTypes(JsonElement bodyOrResponse) =>
        bodyOrResponse.TryGetProperty("content", out var content) ? [.. content.EnumerateObject().Select(c => (string?)c.Name)] : [null];

    /// <summary>The query an operation requires: each required parameter its first allowed value or example, or a plain value of its type.</summary>
    private static string QueryString(JsonElement operation)
    {
        if (!operation.TryGetProperty("parameters", out var parameters))
        {
            return "";
        }

        var pairs = new List<string>();
        foreach (var parameter in parameters.EnumerateArray()
            .Where(p => p.GetProperty("in").GetString() == "query" && p.TryGetProperty("required", out var required) && required.GetBoolean()))
        {
            var name = parameter.GetProperty("name").GetString()!;
            var schema = parameter.GetProperty("schema");
            var value = schema.TryGetProperty("enum", out var values) ? values[0].GetString()
                : schema.TryGetProperty("examples", out var examples) ? examples[0].GetString()
                : schema.TryGetProperty("type", out var type) ? type.GetString() switch
                {
                    "string" => "a",
                    "integer" or "number" => "1",
                    "boolean" => "true",
                    _ => null,
                }
                : null;
            pairs.Add($"{Uri.EscapeDataString(name)}={Uri.EscapeDataString(value ?? throw new Xunit.Sdk.XunitException($"The required query parameter {name} has no value this test can give."))}");
        }

        return pairs.Count == 0 ? "" : "?" + string.Join('&', pairs);
    }

    /// <summary>The empty message in a media type's encoding: every request message of the sample may be empty.</summary>
    private static ByteArrayContent Body(string mediaType)
    {
        byte[] bytes = mediaType switch
        {
            "application/json" => "{}"u8.ToArray(),
            "application/x-protobuf" or "application/proto" or "application/x-www-form-urlencoded" => [],
            "application/xml" => "<root></root>"u8.ToArray(),
            "application/connect+proto" => Envelope([]),
            "application/connect+json" => Envelope("{}"u8.ToArray()),
            // The added codec's: base64 of no bytes is no text.
            Base64ProtobufCodec.MediaType or Base64ProtobufCodec.TextMediaType or "application/b64" => [],
            "application/connect+b64" => Envelope([]),
            _ => throw new Xunit.Sdk.XunitException($"A request body is documented in {mediaType}, for which this test has no empty message."),
        };
        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new MediaTypeHeaderValue(mediaType);
        return content;
    }

    /// <summary>One Connect envelope: flag 0, the big-endian length, the payload.</summary>
    private static byte[] Envelope(byte[] payload)
    {
        var envelope = new byte[5 + payload.Length];
        BinaryPrimitives.WriteInt32BigEndian(envelope.AsSpan(1), payload.Length);
        payload.CopyTo(envelope, 5);
        return envelope;
    }

    /// <summary>The sample's Search throws on an empty query, on purpose (README): the one service failure expected here.</summary>
    private static bool IsEmptySearch(LogEntry entry) =>
        entry.EventId.Name == "ServiceFailed" && entry.Exception?.Message == "The query is empty.";

    [GeneratedRegex("<section class=\"px-file\"><h2><a href=\"([^\"]+)\">")]
    private static partial Regex FileLink();

    [GeneratedRegex("<article class=\"px-method\" id=\"(?<id>[^\"]+)\"[^>]*>(?<html>.*?)</article>", RegexOptions.Singleline)]
    private static partial Regex MethodArticle();

    [GeneratedRegex("formaction=\"([^\"]+)\"")]
    private static partial Regex FormAction();

    [GeneratedRegex("<p class=\"px-route\"><code>(?<verb>GET|POST) (?<route>[^<]+)</code>")]
    private static partial Regex Route();

    [GeneratedRegex("<code>(application/[^<]+)</code>")]
    private static partial Regex MediaTypeCode();
}

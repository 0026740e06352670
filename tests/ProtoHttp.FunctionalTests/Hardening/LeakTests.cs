using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Outside Development, nothing of a service's exception (text, type name, stack) reaches the client, in any format
/// or header; an <c>RpcException</c>'s status detail and trailers do (docs/protocol.md section 5).
/// </summary>
public sealed class LeakTests : IAsyncLifetime
{
    private static readonly string[] Forbidden =
    [
        SpecimenService.Secret, "s3cr3t", nameof(SecretTypeNameLeakException), "InvalidOperationException", "AggregateException", "IOException",
        "UnauthorizedAccessException", "Exception", " at ", "SpecimenService", ".cs", "FunctionalTests", "line ", "server-side message",
    ];

    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync("Production", map: app => app.MapProtoService<SpecimenService>());

    public async Task DisposeAsync() => await _server.DisposeAsync();

    /// <summary>
    /// Every way an answer can carry a failure: ProtoHttp's unary calls in each request format, GET and the suffixes;
    /// Connect's unary calls in both codecs; a stream's last record (after one message) in each framing, on
    /// ProtoHttp's route and Connect's; and gRPC-Web's trailers frame, binary and text, unary and after a message.
    /// </summary>
    public static TheoryData<string, int> Calls()
    {
        var data = new TheoryData<string, int>();
        string[] formats =
        [
            "protobuf", "json", "xml", "form", "get", "get.pb", "get.xml", "connect.proto", "connect.json",
            "stream " + StreamWire.Events, "stream " + StreamWire.Lines, "stream " + StreamWire.ConnectProto, "stream " + StreamWire.ConnectJson,
            "connect-stream " + StreamWire.ConnectProto, "connect-stream " + StreamWire.ConnectJson,
            "grpc-web application/grpc-web+proto", "grpc-web application/grpc-web-text", "grpc-web-stream application/grpc-web+proto",
        ];
        foreach (var format in formats)
        {
            for (var code = 0; code <= 4; code++)
            {
                data.Add(format, code);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Calls))]
    public async Task NoExceptionTextTypeOrStackReachesTheClient(string format, int code)
    {
        using var response = await _server.Client.SendAsync(Request(format, code));
        var body = await response.Content.ReadAsByteArrayAsync();
        if (format.StartsWith("grpc-web", StringComparison.Ordinal) && format.EndsWith("-text", StringComparison.Ordinal))
        {
            body = GrpcWebWire.DecodeText(Encoding.ASCII.GetString(body)); // Base64 would hide any secret from the search below.
        }

        // Every byte of the answer as text, whatever its format: protobuf strings are UTF-8 in the clear too; and again
        // percent-decoded, as gRPC-Web's grpc-message is.
        var everything = Encoding.UTF8.GetString(body) + "\n" + string.Join("\n", response.Headers.Concat(response.Content.Headers).Concat(response.TrailingHeaders)
            .Select(h => $"{h.Key}: {string.Join(",", h.Value)}"));
        everything += "\n" + Uri.UnescapeDataString(everything);

        foreach (var secret in Forbidden)
        {
            Assert.False(everything.Contains(secret, StringComparison.OrdinalIgnoreCase), $"'{secret}' reached the client:\n{everything}");
        }

        // And the failure did reach it, as the protocol says, so the absence above is not that of a missing answer.
        var (status, errorCode, errorText, reason) = await OutcomeAsync(format, response, body);
        switch (code)
        {
            case 3:
                Assert.Equal((HttpStatusCode.BadRequest, "FAILED_PRECONDITION", "public detail for the client"), (status, errorCode, errorText));
                Assert.Equal("public", reason);
                break;
            case 4:
                Assert.Equal((HttpStatusCode.InternalServerError, "INTERNAL", "internal but deliberate detail"), (status, errorCode, errorText));
                break;
            default:
                Assert.Equal((HttpStatusCode.InternalServerError, "UNKNOWN", "The service failed to handle the call."), (status, errorCode, errorText));
                break;
        }
    }

    // gRPC's status codes by number, as its specification lists them (doc/statuscodes.md): written out here, not
    // read from ProtoHttp's mapping, whose answers this test checks.
    private static readonly string[] GrpcCodeNames =
    [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED",
    ];

    /// <summary>
    /// The failure as the answer tells it: the status (a stream's, which answers 200 once a message went out, as
    /// its last record's code maps), the code, the text and the <c>x-reason</c> trailer, wherever the format puts it.
    /// </summary>
    private static async Task<(HttpStatusCode Status, string? Code, string? Text, string? Reason)> OutcomeAsync(string format, HttpResponseMessage response, byte[] body)
    {
        if (format.StartsWith("grpc-web", StringComparison.Ordinal))
        {
            // Once accepted, gRPC-Web tells every failure in the trailers frame with status 200 (docs/grpc-web.md).
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            var (messages, trailers) = GrpcWebWire.Read(body);
            Assert.Equal(format.StartsWith("grpc-web-stream", StringComparison.Ordinal) ? 1 : 0, messages.Count);
            var code = GrpcCodeNames[int.Parse(trailers["grpc-status"], CultureInfo.InvariantCulture)];
            var status = code switch
            {
                "FAILED_PRECONDITION" => HttpStatusCode.BadRequest,
                "INTERNAL" or "UNKNOWN" => HttpStatusCode.InternalServerError,
                _ => response.StatusCode,
            };
            return (status, code, Uri.UnescapeDataString(trailers["grpc-message"]), trailers.GetValueOrDefault("x-reason"));
        }

        if (format.StartsWith("stream ", StringComparison.Ordinal) || format.StartsWith("connect-stream ", StringComparison.Ordinal))
        {
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            var (messages, end) = await StreamWire.ReadAllAsync<Specimen>(response);
            Assert.Single(messages);
            var status = end.Code switch
            {
                "FAILED_PRECONDITION" => HttpStatusCode.BadRequest,
                "INTERNAL" or "UNKNOWN" => HttpStatusCode.InternalServerError,
                _ => response.StatusCode,
            };
            return (status, end.Code, end.ErrorText, end.Metadata.TryGetValue("x-reason", out var values) ? Assert.Single(values) : null);
        }

        if (format.StartsWith("connect.", StringComparison.Ordinal))
        {
            // Connect's unary errors are JSON in either codec, codes in lower case, trailers as trailer- headers.
            using var error = JsonDocument.Parse(body);
            var reason = response.Headers.TryGetValues("trailer-x-reason", out var values) ? Assert.Single(values) : null;
            return (response.StatusCode, error.RootElement.GetProperty("code").GetString()?.ToUpperInvariant(), error.RootElement.GetProperty("message").GetString(), reason);
        }

        var result = ErrorBody.TryRead(response.Content.Headers.ContentType?.ToString(), body);
        Assert.NotNull(result);
        return (response.StatusCode, result.Code, result.ErrorText, response.Headers.TryGetValues("x-reason", out var header) ? Assert.Single(header) : null);
    }

    [Fact]
    public async Task TheServerLogStillHasTheWholeException()
    {
        using var response = await _server.Client.SendAsync(Request("json", 1));

        var entry = await WaitForErrorAsync();
        Assert.IsType<SecretTypeNameLeakException>(entry.Exception);
        Assert.Contains(SpecimenService.Secret, entry.Exception!.Message, StringComparison.Ordinal);
    }

    // The request's end comes after every log line it causes: then the one Error of this call is there, or never will be.
    private async Task<LogEntry> WaitForErrorAsync()
    {
        await _server.Logs.WhenRequestsEndedAsync();
        return Assert.Single(_server.Logs.Errors, e => e.Exception is SecretTypeNameLeakException);
    }

    private static HttpRequestMessage Request(string format, int code)
    {
        const string path = "/hardening.proto/Leak";
        const string connectPath = "/protohttp.hardening.Hardening/";
        var message = new Specimen { Code = code };
        if (format.StartsWith("get", StringComparison.Ordinal))
        {
            var suffix = format.Length > 3 ? format[3..] : "";
            return new HttpRequestMessage(HttpMethod.Get, $"{path}{suffix}?code={code}");
        }

        if (format.Split(' ') is [var grpcWeb and ("grpc-web" or "grpc-web-stream"), var grpcWebType])
        {
            var frame = GrpcWebWire.Frame(message);
            var body = grpcWebType.EndsWith("-text", StringComparison.Ordinal) ? Encoding.ASCII.GetBytes(Convert.ToBase64String(frame)) : frame;
            return GrpcWebWire.Post(connectPath + (grpcWeb == "grpc-web" ? "Leak" : "LeakStream"), body, grpcWebType);
        }

        if (format.Split(' ') is ["stream", var accept])
        {
            return Wire.Post("/hardening.proto/LeakStream", message, "application/json", accept);
        }

        if (format.Split(' ') is ["connect-stream", var envelopes])
        {
            var request = new HttpRequestMessage(HttpMethod.Post, connectPath + "LeakStream") { Content = new ByteArrayContent(StreamWire.Envelope(message, envelopes)) };
            request.Content.Headers.ContentType = new MediaTypeHeaderValue(envelopes);
            return request;
        }

        if (format.StartsWith("connect.", StringComparison.Ordinal))
        {
            return Wire.Post(connectPath + "Leak", message, format == "connect.proto" ? "application/proto" : "application/json");
        }

        HttpContent content = format switch
        {
            "protobuf" => new ByteArrayContent(message.ToByteArray()),
            "json" => new StringContent(JsonFormatter.Default.Format(message)),
            "xml" => new StringContent($"<root><code>{code}</code></root>"),
            _ => new StringContent($"code={code}"),
        };
        content.Headers.ContentType = new MediaTypeHeaderValue(format switch
        {
            "protobuf" => "application/x-protobuf",
            "json" => "application/json",
            "xml" => "application/xml",
            _ => "application/x-www-form-urlencoded",
        });
        return new HttpRequestMessage(HttpMethod.Post, path) { Content = content };
    }
}

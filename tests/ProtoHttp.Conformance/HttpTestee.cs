using System.Net;
using System.Net.Http.Headers;
using Conformance;
using Google.Protobuf;
using WireFormat = Conformance.WireFormat;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using ProtoHttp.Conformance.Services;

namespace ProtoHttp.Conformance;

/// <summary>
/// Sends every case through ProtoHttp over HTTP/1.1 to echo services on real Kestrel at a loopback port: the payload
/// as the body with its format's Content-Type, the wanted output format in Accept. 400 is a parse error and 406 a
/// serialize error, as docs/protocol.md says. Any other status is this run's failure: the runner aborts on a runtime
/// error in some suites, so it is answered as a serialize error (which fails every case that expects a payload or a
/// parse error) and written to stderr, where run.sh finds it and fails the run even if the runner did not.
/// </summary>
internal sealed class HttpTestee : ITestee
{
    private static readonly MediaTypeWithQualityHeaderValue ProtobufType = new("application/x-protobuf");
    private static readonly MediaTypeWithQualityHeaderValue JsonType = new("application/json");

    private readonly WebApplication _strict;
    private readonly WebApplication _lenient;
    private readonly HttpClient _client = new(new SocketsHttpHandler { UseProxy = false });

    private HttpTestee(WebApplication strict, WebApplication lenient)
    {
        _strict = strict;
        _lenient = lenient;
    }

    public static async Task<HttpTestee> StartAsync()
    {
        // The runner's "ignore unknown fields" cases go to a second server whose services are set to ignore them.
        var strict = await StartServerAsync(ignoreUnknownFields: false);
        var lenient = await StartServerAsync(ignoreUnknownFields: true);
        return new HttpTestee(strict, lenient);
    }

    public async Task<ConformanceResponse> RunAsync(ConformanceRequest request)
    {
        if (SkippedCases.Answer(request) is { } skipped)
        {
            return skipped;
        }

        TestMessages.TryFind(request.MessageType, out var prefix, out _);
        var server = request.TestCategory == TestCategory.JsonIgnoreUnknownParsingTest ? _lenient : _strict;
        using var call = new HttpRequestMessage(HttpMethod.Post, $"{server.Urls.First()}{prefix}/Echo")
        {
            Content = request.PayloadCase == ConformanceRequest.PayloadOneofCase.ProtobufPayload
                ? Body(request.ProtobufPayload.ToByteArray(), ProtobufType)
                : Body(System.Text.Encoding.UTF8.GetBytes(request.JsonPayload), JsonType),
        };
        call.Headers.Accept.Add(request.RequestedOutputFormat == WireFormat.Protobuf ? ProtobufType : JsonType);

        using var response = await _client.SendAsync(call);
        var body = await response.Content.ReadAsByteArrayAsync();
        return response.StatusCode switch
        {
            HttpStatusCode.OK when request.RequestedOutputFormat == WireFormat.Protobuf => new() { ProtobufPayload = ByteString.CopyFrom(body) },
            HttpStatusCode.OK => new() { JsonPayload = System.Text.Encoding.UTF8.GetString(body) },
            HttpStatusCode.BadRequest => new() { ParseError = ErrorText(body) },
            HttpStatusCode.NotAcceptable => new() { SerializeError = ErrorText(body) },
            _ => Unexpected(request, response.StatusCode, body),
        };
    }

    public async ValueTask DisposeAsync()
    {
        _client.Dispose();
        await _strict.DisposeAsync();
        await _lenient.DisposeAsync();
    }

    private static ByteArrayContent Body(byte[] bytes, MediaTypeHeaderValue type)
    {
        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new MediaTypeHeaderValue(type.MediaType!);
        return content;
    }

    private static ConformanceResponse Unexpected(ConformanceRequest request, HttpStatusCode status, byte[] body)
    {
        var text = $"HTTP {(int)status}: {ErrorText(body)}";
        Console.Error.WriteLine($"{UnexpectedStatusMarker} {request.MessageType} ({request.PayloadCase} in, {request.RequestedOutputFormat} out): {text}");
        return new() { SerializeError = text };
    }

    /// <summary>What starts each stderr line run.sh looks for.</summary>
    public const string UnexpectedStatusMarker = "protohttp-testee: unexpected status";

    // Error answers are ErrorResults in the negotiated format; the runner only prints the text.
    private static string ErrorText(byte[] body) => System.Text.Encoding.UTF8.GetString(body);

    private static async Task<WebApplication> StartServerAsync(bool ignoreUnknownFields)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = Environments.Production });
        // stdout is the runner's pipe; errors go to stderr, which the runner passes through.
        builder.Logging.ClearProviders().SetMinimumLevel(LogLevel.Error)
            .AddConsole(o => o.LogToStandardErrorThreshold = LogLevel.Trace);
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        builder.Services.AddProtoHttp(o =>
        {
            o.IgnoreUnknownFields = ignoreUnknownFields;
            o.ServeProtoFile = false;
        });

        var app = builder.Build();
        app.MapProtoService<Proto3EchoService>("/proto3");
        app.MapProtoService<Proto2EchoService>("/proto2");
        app.MapProtoService<Edition2023EchoService>("/edition2023");
        app.MapProtoService<EditionsProto2EchoService>("/editions-proto2");
        app.MapProtoService<EditionsProto3EchoService>("/editions-proto3");
        await app.StartAsync();
        return app;
    }
}

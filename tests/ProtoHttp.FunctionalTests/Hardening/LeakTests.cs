using System.Net;
using System.Net.Http.Headers;
using System.Text;
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

    public static TheoryData<string, int> Calls()
    {
        var data = new TheoryData<string, int>();
        foreach (var format in new[] { "protobuf", "json", "xml", "form", "get", "get.pb", "get.xml" })
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
        // Every byte of the answer as text, whatever its format: protobuf strings are UTF-8 in the clear too.
        var everything = Encoding.UTF8.GetString(body) + "\n" + string.Join("\n", response.Headers.Concat(response.Content.Headers).Select(h => $"{h.Key}: {string.Join(",", h.Value)}"));

        foreach (var secret in Forbidden)
        {
            Assert.False(everything.Contains(secret, StringComparison.OrdinalIgnoreCase), $"'{secret}' reached the client:\n{everything}");
        }

        var error = ErrorBody.TryRead(response.Content.Headers.ContentType?.ToString(), body);
        Assert.NotNull(error);
        switch (code)
        {
            case 3:
                Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
                Assert.Equal(("FAILED_PRECONDITION", "public detail for the client"), (error.Code, error.ErrorText));
                Assert.Equal("public", Assert.Single(response.Headers.GetValues("x-reason")));
                break;
            case 4:
                Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
                Assert.Equal(("INTERNAL", "internal but deliberate detail"), (error.Code, error.ErrorText));
                break;
            default:
                Assert.Equal(HttpStatusCode.InternalServerError, response.StatusCode);
                Assert.Equal(("UNKNOWN", "The service failed to handle the call."), (error.Code, error.ErrorText));
                break;
        }
    }

    [Fact]
    public async Task TheServerLogStillHasTheWholeException()
    {
        using var response = await _server.Client.SendAsync(Request("json", 1));

        var entry = await WaitForErrorAsync();
        Assert.IsType<SecretTypeNameLeakException>(entry.Exception);
        Assert.Contains(SpecimenService.Secret, entry.Exception!.Message, StringComparison.Ordinal);
    }

    private async Task<LogEntry> WaitForErrorAsync()
    {
        for (var i = 0; i < 100; i++)
        {
            if (_server.Logs.Errors.FirstOrDefault(e => e.Exception is SecretTypeNameLeakException) is { } entry)
            {
                return entry;
            }

            await Task.Delay(50);
        }

        throw new Xunit.Sdk.XunitException("The service's exception was not logged.");
    }

    private static HttpRequestMessage Request(string format, int code)
    {
        const string path = "/hardening.proto/Leak";
        var message = new Specimen { Code = code };
        if (format.StartsWith("get", StringComparison.Ordinal))
        {
            var suffix = format.Length > 3 ? format[3..] : "";
            return new HttpRequestMessage(HttpMethod.Get, $"{path}{suffix}?code={code}");
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

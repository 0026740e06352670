using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Middleware;

namespace ProtoHttp.FunctionalTests.Middleware;

/// <summary>
/// <c>UseHttpsRedirection</c>: a call over plain HTTP is redirected with <c>307</c> (which keeps the verb and body),
/// and the same call over HTTPS is answered; a client that follows redirects gets the answer.
/// </summary>
public sealed class HttpsRedirectionTests : IAsyncLifetime
{
    private readonly X509Certificate2 _certificate = CreateCertificate();
    private readonly int _httpsPort = LoopbackPort.Free();
    private MiddlewareApp _app = null!;

    public async Task InitializeAsync() => _app = await MiddlewareApp.StartAsync(
        services: services => services.AddHttpsRedirection(o => o.HttpsPort = _httpsPort),
        pipeline: app => app.UseHttpsRedirection(),
        configureKestrel: kestrel => kestrel.Listen(IPAddress.Loopback, _httpsPort, listen => listen.UseHttps(_certificate)));

    public async Task DisposeAsync()
    {
        await _app.DisposeAsync();
        _certificate.Dispose();
    }

    [Fact]
    public async Task APlainHttpCallIsRedirectedToHttpsWith307()
    {
        using var handler = new HttpClientHandler { AllowAutoRedirect = false };
        using var client = new HttpClient(handler) { BaseAddress = _app.Address };

        using var response = await client.SendAsync(Wire.Post($"{MiddlewareApp.Prefix}/Lookup?x=1", new LookupRequest { Key = "k" }, "application/json"));

        Assert.Equal(HttpStatusCode.TemporaryRedirect, response.StatusCode);
        Assert.Equal($"https://127.0.0.1:{_httpsPort}{MiddlewareApp.Prefix}/Lookup?x=1", response.Headers.Location?.ToString());
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/x-protobuf")]
    public async Task AClientThatFollowsTheRedirectGetsTheAnswerOverHttps(string format)
    {
        using var handler = new HttpClientHandler
        {
            ServerCertificateCustomValidationCallback = (_, certificate, _, _) => certificate?.Thumbprint == _certificate.Thumbprint,
        };
        using var client = new HttpClient(handler) { BaseAddress = _app.Address };

        using var response = await client.SendAsync(Wire.Post($"{MiddlewareApp.Prefix}/Lookup", new LookupRequest { Key = "secure" }, format));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("https", response.RequestMessage!.RequestUri!.Scheme);
        Assert.Equal("secure", (await Wire.ReadAsync<LookupReply>(response)).Key);
    }

    private static X509Certificate2 CreateCertificate()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=127.0.0.1", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));
        // Kestrel needs the key in a form the platform's TLS can use: a PKCS#12 round trip gives it one.
        return X509CertificateLoader.LoadPkcs12(certificate.Export(X509ContentType.Pkcs12), password: null);
    }
}

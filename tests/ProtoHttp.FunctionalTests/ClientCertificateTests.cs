using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Https;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests;

/// <summary>A client certificate over HTTPS reaches the service's AuthContext as grpc-dotnet presents it.</summary>
public sealed class ClientCertificateTests : IAsyncLifetime
{
    private readonly X509Certificate2 _serverCertificate = Create("CN=localhost", dnsName: "localhost", serverAuth: true);
    private readonly int _httpsPort = LoopbackPort.Free();
    private SampleServer _server = null!;

    public async Task InitializeAsync() => _server = await SampleServer.StartAsync(configure: builder =>
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, _httpsPort, listen => listen.UseHttps(https =>
        {
            https.ServerCertificate = _serverCertificate;
            https.ClientCertificateMode = ClientCertificateMode.AllowCertificate;
            https.AllowAnyClientCertificate();
        }))));

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _serverCertificate.Dispose();
    }

    [Theory]
    [InlineData("CN=test-client", "client.example", "x509_subject_alternative_name", "client.example")]
    [InlineData("CN=test-client", null, "x509_common_name", "test-client")]
    public async Task TheClientCertificateIsThePeerIdentity(string subject, string? dnsName, string property, string identity)
    {
        using var certificate = Create(subject, dnsName, serverAuth: false);
        using var reply = await CallContextAsync(certificate);

        Assert.Equal(HttpStatusCode.OK, reply.StatusCode);
        var context = await Wire.ReadAsync<ContextReply>(reply);
        Assert.True(context.PeerAuthenticated);
        Assert.Equal(property, context.PeerIdentityProperty);
        Assert.Equal([identity], context.PeerIdentity);
    }

    [Fact]
    public async Task WithoutAClientCertificateThePeerIsNotAuthenticated()
    {
        using var reply = await CallContextAsync(certificate: null);

        var context = await Wire.ReadAsync<ContextReply>(reply);
        Assert.False(context.PeerAuthenticated);
        Assert.Empty(context.PeerIdentity);
    }

    private async Task<HttpResponseMessage> CallContextAsync(X509Certificate2? certificate)
    {
        var handler = new HttpClientHandler
        {
            ClientCertificateOptions = ClientCertificateOption.Manual,
            ServerCertificateCustomValidationCallback = (_, _, _, _) => true, // The test's own self-signed server.
        };
        if (certificate is not null)
        {
            handler.ClientCertificates.Add(certificate);
        }

        using var client = new HttpClient(handler) { BaseAddress = new Uri($"https://localhost:{_httpsPort}") };
        return await client.SendAsync(Wire.Post("/test_service.proto/Context", new ContextRequest(), "application/json"));
    }

    private static X509Certificate2 Create(string subject, string? dnsName, bool serverAuth)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest(subject, key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension(
            [new Oid(serverAuth ? "1.3.6.1.5.5.7.3.1" : "1.3.6.1.5.5.7.3.2")], critical: false));
        if (dnsName is not null)
        {
            var names = new SubjectAlternativeNameBuilder();
            names.AddDnsName(dnsName);
            request.CertificateExtensions.Add(names.Build());
        }

        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddHours(1));
        // A PKCS#12 round trip gives a certificate whose key TLS can use on every platform.
        return X509CertificateLoader.LoadPkcs12(certificate.Export(X509ContentType.Pfx), password: null);
    }

}

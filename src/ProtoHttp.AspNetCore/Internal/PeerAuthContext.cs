using System.Security.Cryptography.X509Certificates;
using System.Text;
using Grpc.Core;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// The <see cref="AuthContext"/> of a call, built as grpc-dotnet builds it (after gRPC core's ssl_utils): with a client
/// certificate, each DNS subject alternative name as <c>x509_subject_alternative_name</c> and the common name as
/// <c>x509_common_name</c>, the first of those kinds present being the peer identity; without one, an unauthenticated
/// peer with no properties.
/// </summary>
internal static class PeerAuthContext
{
    public const string X509SubjectAlternativeNameKey = "x509_subject_alternative_name";
    public const string X509CommonNameKey = "x509_common_name";

    public static AuthContext For(X509Certificate2? clientCertificate)
    {
        var properties = new Dictionary<string, List<AuthProperty>>(StringComparer.Ordinal);
        if (clientCertificate is null)
        {
            return new AuthContext(peerIdentityPropertyName: null, properties);
        }

        string? peerIdentity = null;
        foreach (var extension in clientCertificate.Extensions)
        {
            if (extension is X509SubjectAlternativeNameExtension alternativeNames)
            {
                foreach (var dnsName in alternativeNames.EnumerateDnsNames())
                {
                    Add(properties, X509SubjectAlternativeNameKey, dnsName);
                    peerIdentity ??= X509SubjectAlternativeNameKey;
                }
            }
        }

        var commonName = clientCertificate.GetNameInfo(X509NameType.SimpleName, forIssuer: false);
        if (!string.IsNullOrEmpty(commonName))
        {
            Add(properties, X509CommonNameKey, commonName);
            peerIdentity ??= X509CommonNameKey;
        }

        return new AuthContext(peerIdentity, properties);
    }

    private static void Add(Dictionary<string, List<AuthProperty>> properties, string name, string value)
    {
        if (!properties.TryGetValue(name, out var values))
        {
            values = [];
            properties[name] = values;
        }

        values.Add(AuthProperty.Create(name, Encoding.UTF8.GetBytes(value)));
    }
}

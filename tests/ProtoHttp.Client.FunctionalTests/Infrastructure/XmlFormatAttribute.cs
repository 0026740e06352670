using System.Reflection;
using ProtoHttp.Client;
using Xunit.Sdk;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>Runs a theory in XML, or skips it, saying why, while this build of ProtoHttp has no XML codec.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class XmlFormatAttribute : DataAttribute
{
    private static readonly string? MissingReason = FindMissingReason();

    public override string? Skip
    {
        get => MissingReason;
        set => throw new NotSupportedException("The skip reason follows the build.");
    }

    public override IEnumerable<object[]> GetData(MethodInfo testMethod) => [[MessageFormat.Xml]];

    private static string? FindMissingReason()
    {
        using var http = new HttpClient();
        try
        {
            _ = new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = new Uri("http://127.0.0.1"), Format = MessageFormat.Xml });
            return null;
        }
        catch (InvalidOperationException ex)
        {
            return "XML: " + ex.Message;
        }
    }
}

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>The headers of Connect's streaming protocol, whose messages are compressed one envelope at a time.</summary>
internal static class ConnectStreamHeaders
{
    public const string ContentEncoding = "Connect-Content-Encoding";
    public const string AcceptEncoding = "Connect-Accept-Encoding";
}

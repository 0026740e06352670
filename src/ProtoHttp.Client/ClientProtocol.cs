namespace ProtoHttp.Client;

/// <summary>The protocol a <see cref="ProtoHttpCallInvoker"/> speaks.</summary>
public enum ClientProtocol
{
    /// <summary>ProtoHttp's own: <c>POST {Address}/{file}.proto/{Method}</c>, errors as ErrorResult.</summary>
    ProtoHttp,

    /// <summary>
    /// The Connect protocol (connectrpc.com): <c>POST {Address}/{package.Service}/{Method}</c> with
    /// <c>application/proto</c> or <c>application/json</c>, errors as Connect's JSON; streaming methods in Connect's
    /// streaming protocol (<c>application/connect+proto|json</c> envelopes, gzipped responses read). Calls any Connect
    /// server (connect-go, connect-es, ProtoHttp), not only ProtoHttp ones.
    /// </summary>
    Connect,
}

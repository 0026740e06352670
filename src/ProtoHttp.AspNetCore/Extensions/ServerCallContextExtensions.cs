using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore;

/// <summary>Reaches ASP.NET Core from a service method called over ProtoHttp.</summary>
public static class ServerCallContextExtensions
{
    /// <summary>
    /// The <see cref="HttpContext"/> of a ProtoHttp call (user, connection, features), or <see langword="null"/> when
    /// the call came another way. Named apart from grpc-dotnet's <c>GetHttpContext()</c> so one service class can
    /// reference both hosts without an ambiguous call.
    /// </summary>
    public static HttpContext? GetProtoHttpContext(this ServerCallContext context) =>
        (context as ProtoHttpServerCallContext)?.HttpContext;
}

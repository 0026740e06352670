using Google.Protobuf.Reflection;
using Grpc.Core;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>How the explorer names and declares a method.</summary>
internal static class MethodKinds
{
    /// <summary>The kind an endpoint's metadata gives (<see cref="ProtoHttpMethodMetadata.Kind"/>), as the page names it.</summary>
    public static string Of(MethodType kind) => kind switch
    {
        MethodType.Unary => "unary",
        MethodType.ServerStreaming => "server streaming",
        MethodType.ClientStreaming => "client streaming",
        _ => "bidirectional streaming",
    };

    /// <summary>The kind as the page's script reads it (<c>data-kind</c>): <c>unary</c>, <c>server</c>, <c>client</c>, <c>bidi</c>.</summary>
    public static string Code(MethodType kind) => kind switch
    {
        MethodType.Unary => "unary",
        MethodType.ServerStreaming => "server",
        MethodType.ClientStreaming => "client",
        _ => "bidi",
    };

    /// <summary>The method's declaration as its .proto reads: <c>rpc Watch (Request) returns (stream Tick)</c>.</summary>
    public static string Declaration(MethodDescriptor method) =>
        $"rpc {method.Name} ({(method.IsClientStreaming ? "stream " : "")}{method.InputType.FullName}) " +
        $"returns ({(method.IsServerStreaming ? "stream " : "")}{method.OutputType.FullName})";

    /// <summary>The anchor of a method on its file's page.</summary>
    public static string Anchor(MethodDescriptor method) => method.Service.Name + "." + method.Name;
}

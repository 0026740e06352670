using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Internal.Explorer;

/// <summary>How the explorer names and declares a method.</summary>
internal static class MethodKinds
{
    public static string Of(MethodDescriptor method) => (method.IsClientStreaming, method.IsServerStreaming) switch
    {
        (false, false) => "unary",
        (false, true) => "server streaming",
        (true, false) => "client streaming",
        _ => "bidirectional streaming",
    };

    /// <summary>The method's declaration as its .proto reads: <c>rpc Watch (Request) returns (stream Tick)</c>.</summary>
    public static string Declaration(MethodDescriptor method) =>
        $"rpc {method.Name} ({(method.IsClientStreaming ? "stream " : "")}{method.InputType.FullName}) " +
        $"returns ({(method.IsServerStreaming ? "stream " : "")}{method.OutputType.FullName})";

    /// <summary>The anchor of a method on its file's page.</summary>
    public static string Anchor(MethodDescriptor method) => method.Service.Name + "." + method.Name;
}

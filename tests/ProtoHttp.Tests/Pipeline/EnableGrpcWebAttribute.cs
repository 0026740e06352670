namespace Grpc.AspNetCore.Web;

/// <summary>
/// Stands for Grpc.AspNetCore.Web's attribute of this full name, which ProtoHttp reads by name only
/// (<c>GrpcDotnetWebClaim</c>), so the dispatcher's tests need no reference to grpc-dotnet's gRPC-Web.
/// </summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Method)]
internal sealed class EnableGrpcWebAttribute : Attribute;

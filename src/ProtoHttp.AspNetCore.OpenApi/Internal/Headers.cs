using Microsoft.OpenApi;

namespace ProtoHttp.AspNetCore.OpenApi.Internal;

/// <summary>Request headers every method takes, in both protocols.</summary>
internal static class Headers
{
    /// <summary><c>Connect-Timeout-Ms</c>, the call's deadline (docs/protocol.md section 6).</summary>
    public static OpenApiParameter Timeout() => new()
    {
        Name = "Connect-Timeout-Ms",
        In = ParameterLocation.Header,
        Description = "The call's deadline in milliseconds (1 to 10 digits); past it the call answers 504 DEADLINE_EXCEEDED.",
        Schema = new OpenApiSchema { Type = JsonSchemaType.String, Pattern = "^[0-9]{1,10}$" },
    };
}

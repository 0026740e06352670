using Grpc.Core;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Decorates the app's <see cref="IAuthorizationMiddlewareResultHandler"/> (ASP.NET Core's default unless the app
/// registered its own before <c>AddProtoHttp()</c>): the inner handler challenges or forbids as always, so the schemes
/// keep their behaviour (<c>WWW-Authenticate</c>, a cookie scheme's redirect); then, on ProtoHttp's endpoints only, a
/// 401 or 403 that nobody gave a body gets the ErrorResult (or Connect error) docs/protocol.md section 5 promises.
/// </summary>
internal sealed class ProtoHttpAuthorizationResultHandler(IAuthorizationMiddlewareResultHandler inner) : IAuthorizationMiddlewareResultHandler
{
    public const string UnauthenticatedText = "The call needs an authenticated caller; authenticate and call again.";

    public const string PermissionDeniedText = "The caller is not allowed to make this call.";

    public async Task HandleAsync(RequestDelegate next, HttpContext context, AuthorizationPolicy policy, PolicyAuthorizationResult authorizeResult)
    {
        await inner.HandleAsync(next, context, policy, authorizeResult);
        if ((authorizeResult.Challenged || authorizeResult.Forbidden) && EndpointErrorWriter.Of(context) is { } writer)
        {
            // The status is the scheme's verdict: a scheme may forbid with 401, or answer a challenge with a redirect,
            // which is no refusal to describe.
            var status = context.Response.StatusCode;
            if (status == StatusCodes.Status401Unauthorized)
            {
                await writer.WriteAsync(context, status, StatusCode.Unauthenticated, UnauthenticatedText);
            }
            else if (status == StatusCodes.Status403Forbidden)
            {
                await writer.WriteAsync(context, status, StatusCode.PermissionDenied, PermissionDeniedText);
            }
        }
    }
}

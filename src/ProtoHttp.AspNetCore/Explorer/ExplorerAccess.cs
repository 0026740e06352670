using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Explorer;

/// <summary>
/// Whether the current user may call a method, decided as ASP.NET Core's authorization middleware would decide at
/// the method's own endpoint: its <c>[Authorize]</c> data and policies combined, the policy's schemes authenticated,
/// then the policy evaluated. The explorer shows a method only to users who pass.
/// </summary>
internal sealed class ExplorerAccess(HttpContext context)
{
    private readonly IAuthorizationPolicyProvider? _policies = context.RequestServices.GetService<IAuthorizationPolicyProvider>();
    private readonly IPolicyEvaluator? _evaluator = context.RequestServices.GetService<IPolicyEvaluator>();

    /// <summary>The first refusal met, with its policy, so the page can challenge or forbid as the method would.</summary>
    public (AuthorizationPolicy Policy, PolicyAuthorizationResult Result)? Refusal { get; private set; }

    public async Task<bool> AllowsAsync(Endpoint endpoint)
    {
        if (endpoint.Metadata.GetMetadata<IAllowAnonymous>() is not null)
        {
            return true;
        }

        var authorizeData = endpoint.Metadata.GetOrderedMetadata<IAuthorizeData>();
        var policies = endpoint.Metadata.GetOrderedMetadata<AuthorizationPolicy>();
        if (authorizeData.Count == 0 && policies.Count == 0)
        {
            return true;
        }

        if (_policies is null || _evaluator is null)
        {
            return false; // The method needs authorization the app has not added; its calls fail, so it is not shown.
        }

        var policy = await AuthorizationPolicy.CombineAsync(_policies, authorizeData, policies);
        if (policy is null)
        {
            return true;
        }

        var authenticated = await _evaluator.AuthenticateAsync(policy, context);
        var result = await _evaluator.AuthorizeAsync(policy, authenticated, context, context);
        if (!result.Succeeded)
        {
            Refusal ??= (policy, result);
        }

        return result.Succeeded;
    }

    /// <summary>Answers as the authorization middleware answers a refused call: a challenge or a 403, by the policy's schemes.</summary>
    public Task RefuseAsync()
    {
        var (policy, result) = Refusal ?? throw new InvalidOperationException("Nothing was refused.");
        var handler = context.RequestServices.GetService<IAuthorizationMiddlewareResultHandler>();
        if (handler is not null)
        {
            return handler.HandleAsync(_ => Task.CompletedTask, context, policy, result);
        }

        context.Response.StatusCode = result.Challenged ? StatusCodes.Status401Unauthorized : StatusCodes.Status403Forbidden;
        return Task.CompletedTask;
    }
}

using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Pipeline;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>
/// A REST path's 405 for other verbs stands behind the routes of the same shape (the same paths, whatever their
/// parameters are named): in the branch of a verb one of them takes, that route matches whatever the 405 would and
/// comes first (the 405 is ordered after the routes).
/// </summary>
internal sealed class OtherVerbsFallback(string shape) : RouteFallback
{
    public override bool IsCoveredBy(Endpoint endpoint) =>
        endpoint.Metadata.GetMetadata<RestBinding>() is { } binding && string.Equals(binding.Template.Shape, shape, StringComparison.OrdinalIgnoreCase);
}

using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// Endpoint metadata of an endpoint that answers only what the endpoints it stands behind leave (a service's 404 for
/// unknown methods, a REST path's 405 for other verbs). Where routing's tree puts it beside an endpoint that covers it,
/// one that matches every request it would and outranks it, <see cref="RouteFallbackPolicy"/> leaves it out there.
/// </summary>
internal abstract class RouteFallback
{
    /// <summary>
    /// Whether <paramref name="endpoint"/>, met at the same node of routing's tree, takes every request this fallback
    /// would take there and is always chosen before it.
    /// </summary>
    public abstract bool IsCoveredBy(Endpoint endpoint);
}

using Microsoft.AspNetCore.Builder;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// What <c>MapProtoService&lt;TService&gt;()</c> returns: conventions added here (<c>RequireAuthorization()</c>,
/// <c>RequireCors()</c>, <c>RequireRateLimiting()</c>, ...) apply to every method endpoint of the service, in every
/// format and verb. The <c>.proto</c> source endpoint has conventions of its own, through <see cref="ProtoFile"/>.
/// </summary>
public sealed class ProtoServiceEndpointConventionBuilder : IEndpointConventionBuilder
{
    private readonly IReadOnlyList<IEndpointConventionBuilder> _methodEndpoints;

    internal ProtoServiceEndpointConventionBuilder(IReadOnlyList<IEndpointConventionBuilder> methodEndpoints, IEndpointConventionBuilder? protoFile)
    {
        _methodEndpoints = methodEndpoints;
        ProtoFile = protoFile ?? NoEndpoint.Instance;
    }

    /// <summary>The endpoint that serves the <c>.proto</c> source; public unless given conventions of its own.</summary>
    public IEndpointConventionBuilder ProtoFile { get; }

    /// <inheritdoc />
    public void Add(Action<EndpointBuilder> convention)
    {
        foreach (var endpoint in _methodEndpoints)
        {
            endpoint.Add(convention);
        }
    }

    /// <inheritdoc />
    public void Finally(Action<EndpointBuilder> finallyConvention)
    {
        foreach (var endpoint in _methodEndpoints)
        {
            endpoint.Finally(finallyConvention);
        }
    }

    /// <summary>Stands in for the <c>.proto</c> endpoint when it is switched off, so conventions on it are harmless.</summary>
    private sealed class NoEndpoint : IEndpointConventionBuilder
    {
        public static readonly NoEndpoint Instance = new();

        public void Add(Action<EndpointBuilder> convention)
        {
        }
    }
}

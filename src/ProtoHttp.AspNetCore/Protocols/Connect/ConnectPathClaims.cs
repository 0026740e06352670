namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// Which services already answer Connect. A service can be mapped at several ProtoHttp prefixes, but its Connect
/// paths (<c>/{package.Service}/{Method}</c>) exist once: the first <c>MapProtoService</c> of it claims them, with
/// its conventions (authorization and the like), and later ones map only their own prefix.
/// </summary>
internal sealed class ConnectPathClaims
{
    private readonly HashSet<string> _services = [];

    /// <summary>True the first time a service's full name is claimed.</summary>
    public bool TryClaim(string serviceFullName)
    {
        lock (_services)
        {
            return _services.Add(serviceFullName);
        }
    }
}

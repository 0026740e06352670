namespace ProtoHttp.AspNetCore.Internal;

/// <summary>The name under which a service's <see cref="ProtoHttpOptions"/> are kept.</summary>
internal static class ServiceOptionsName
{
    public static string For<TService>() => "ProtoHttp:" + typeof(TService).FullName;
}

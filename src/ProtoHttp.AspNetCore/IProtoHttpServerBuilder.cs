using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore;

/// <summary>What <c>AddProtoHttp()</c> returns, to configure ProtoHttp further.</summary>
public interface IProtoHttpServerBuilder
{
    /// <summary>The application's services.</summary>
    IServiceCollection Services { get; }
}

using Microsoft.Extensions.DependencyInjection;

namespace ProtoHttp.AspNetCore.Internal;

internal sealed class ProtoHttpServerBuilder(IServiceCollection services) : IProtoHttpServerBuilder
{
    public IServiceCollection Services { get; } = services;
}

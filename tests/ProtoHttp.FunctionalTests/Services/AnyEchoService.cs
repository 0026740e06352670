using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos.AnyEcho;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>Answers each parcel as it came, so what a format reads is what it writes back.</summary>
public class AnyEchoService : AnyEcho.AnyEchoBase
{
    public override Task<Parcel> Echo(Parcel request, ServerCallContext context) => Task.FromResult(request);
}

using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos.ExplorerForm;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>Answers with the request it received, for the explorer's form round trip.</summary>
public sealed class FormEchoService : FormEcho.FormEchoBase
{
    public override Task<EveryKind> Echo(EveryKind request, ServerCallContext context) => Task.FromResult(request);
}

using Grpc.Core;
using ProtobufTestMessages.Editions;

namespace ProtoHttp.Conformance.Services;

/// <summary>Answers the message it is sent, so the runner sees exactly what ProtoHttp read and then wrote.</summary>
internal sealed class Edition2023EchoService : Edition2023Echo.Edition2023EchoBase
{
    public override Task<TestAllTypesEdition2023> Echo(TestAllTypesEdition2023 request, ServerCallContext context) => Task.FromResult(request);
}

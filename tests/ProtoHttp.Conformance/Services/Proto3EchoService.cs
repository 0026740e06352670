using Grpc.Core;
using ProtobufTestMessages.Proto3;

namespace ProtoHttp.Conformance.Services;

/// <summary>Answers the message it is sent, so the runner sees exactly what ProtoHttp read and then wrote.</summary>
internal sealed class Proto3EchoService : Proto3Echo.Proto3EchoBase
{
    public override Task<TestAllTypesProto3> Echo(TestAllTypesProto3 request, ServerCallContext context) => Task.FromResult(request);
}

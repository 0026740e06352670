using Grpc.Core;
using ProtobufTestMessages.Proto2;

namespace ProtoHttp.Conformance.Services;

/// <summary>Answers the message it is sent, so the runner sees exactly what ProtoHttp read and then wrote.</summary>
internal sealed class Proto2EchoService : Proto2Echo.Proto2EchoBase
{
    public override Task<TestAllTypesProto2> Echo(TestAllTypesProto2 request, ServerCallContext context) => Task.FromResult(request);
}

using Grpc.Core;
using ProtobufTestMessages.Editions.Proto3;

namespace ProtoHttp.Conformance.Services;

/// <summary>Answers the message it is sent, so the runner sees exactly what ProtoHttp read and then wrote.</summary>
internal sealed class EditionsProto3EchoService : EditionsProto3Echo.EditionsProto3EchoBase
{
    public override Task<TestAllTypesProto3> Echo(TestAllTypesProto3 request, ServerCallContext context) => Task.FromResult(request);
}

using Grpc.Core;
using ProtobufTestMessages.Editions.Proto2;

namespace ProtoHttp.Conformance.Services;

/// <summary>Answers the message it is sent, so the runner sees exactly what ProtoHttp read and then wrote.</summary>
internal sealed class EditionsProto2EchoService : EditionsProto2Echo.EditionsProto2EchoBase
{
    public override Task<TestAllTypesProto2> Echo(TestAllTypesProto2 request, ServerCallContext context) => Task.FromResult(request);
}

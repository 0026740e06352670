using Grpc.Core;
using ProtoHttp.FunctionalTests.Protos.Proto2Echo;
using ProtobufTestMessages.Proto2;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>Answers Google's proto2 conformance messages as they came.</summary>
public sealed class Proto2EchoService : Proto2Echo.Proto2EchoBase
{
    public override Task<TestAllTypesProto2> EchoAllTypes(TestAllTypesProto2 request, ServerCallContext context) => Task.FromResult(request);

    public override Task<TestAllRequiredTypesProto2> EchoRequiredTypes(TestAllRequiredTypesProto2 request, ServerCallContext context) =>
        Task.FromResult(request);
}

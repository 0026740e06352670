using Grpc.Core;
using Records;

namespace ProtoHttp.Bench.Workloads.Services;

/// <summary>RecordService from Records.proto: W2's echo, served by ProtoHttp and gRPC alike.</summary>
public sealed class RecordEchoService : RecordService.RecordServiceBase
{
    public override Task<RecordList> Echo(RecordList request, ServerCallContext context) => Task.FromResult(request);
}

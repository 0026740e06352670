using Grpc.Core;
using Records;

namespace PeerServer.Peers;

/// <summary>The transcoding peer's Echo.</summary>
public sealed class TranscodedRecordService : Transcoded.TranscodedRecords.TranscodedRecordsBase
{
    public override Task<RecordList> Echo(RecordList request, ServerCallContext context) => Task.FromResult(request);
}

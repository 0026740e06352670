using Conformance;
using Google.Protobuf;
using WireFormat = Conformance.WireFormat;

namespace ProtoHttp.Conformance;

/// <summary>What both testees answer without running anything: the runner's own questions and formats out of scope.</summary>
internal static class SkippedCases
{
    /// <summary>The answer for a case the testee does not run, or <see langword="null"/> to run it.</summary>
    public static ConformanceResponse? Answer(ConformanceRequest request)
    {
        if (request.MessageType == FailureSet.Descriptor.FullName)
        {
            // The runner asks which cases the testee expects to fail: none.
            return new ConformanceResponse { ProtobufPayload = new FailureSet().ToByteString() };
        }

        if (request.PayloadCase is not (ConformanceRequest.PayloadOneofCase.ProtobufPayload or ConformanceRequest.PayloadOneofCase.JsonPayload)
            || request.RequestedOutputFormat is not (WireFormat.Protobuf or WireFormat.Json))
        {
            return new ConformanceResponse { Skipped = "Text format and JSPB are not ProtoHttp formats." };
        }

        if (!TestMessages.TryFind(request.MessageType, out _, out _))
        {
            return new ConformanceResponse { RuntimeError = $"The testee has no echo service for {request.MessageType}." };
        }

        return null;
    }
}

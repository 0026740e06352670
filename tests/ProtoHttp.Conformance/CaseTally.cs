using Conformance;

namespace ProtoHttp.Conformance;

/// <summary>
/// Counts the cases a testee ran by message type, input and output format and outcome, and writes them as
/// tab-separated lines for the report: the runner itself prints only totals and failures.
/// </summary>
internal sealed class CaseTally
{
    private readonly Dictionary<(string Type, string Input, string Output, string Outcome), int> _counts = [];

    public void Add(ConformanceRequest request, ConformanceResponse response)
    {
        var input = request.PayloadCase switch
        {
            ConformanceRequest.PayloadOneofCase.ProtobufPayload => "protobuf",
            ConformanceRequest.PayloadOneofCase.JsonPayload => "JSON",
            var other => other.ToString(),
        };
        var output = request.RequestedOutputFormat == global::Conformance.WireFormat.Json ? "JSON" : request.RequestedOutputFormat.ToString().ToLowerInvariant();
        var outcome = response.ResultCase switch
        {
            ConformanceResponse.ResultOneofCase.ProtobufPayload or ConformanceResponse.ResultOneofCase.JsonPayload => "answered",
            ConformanceResponse.ResultOneofCase.ParseError => "parse error",
            ConformanceResponse.ResultOneofCase.SerializeError => "serialize error",
            ConformanceResponse.ResultOneofCase.Skipped => "skipped",
            _ => "runtime error",
        };
        var key = (request.MessageType, input, output, outcome);
        _counts[key] = _counts.GetValueOrDefault(key) + 1;
    }

    public void WriteTo(string path) =>
        File.WriteAllLines(path, _counts.OrderBy(c => c.Key).Select(c => $"{c.Key.Type}\t{c.Key.Input}\t{c.Key.Output}\t{c.Key.Outcome}\t{c.Value}"));
}

using ProtoHttp.Conformance;

// Google's conformance_test_runner starts this program and speaks to it over stdin/stdout: each request and
// response is a 4-byte little-endian length and a ConformanceRequest/ConformanceResponse. Nothing else may be
// written to stdout. "reference" answers through Google.Protobuf in-process, for the side-by-side report;
// "report <reference dir> <protohttp dir> <known failures>" writes that report (run.sh runs all three).
if (args is ["report", var referenceResults, var protoHttpResults, var knownFailures])
{
    Console.Write(ConformanceReport.Write(referenceResults, protoHttpResults, knownFailures));
    return 0;
}

var reference = args is ["reference"];
await using ITestee testee = reference ? new ReferenceTestee() : await HttpTestee.StartAsync();
var tally = new CaseTally();

using var input = Console.OpenStandardInput();
using var output = Console.OpenStandardOutput();
while (await ConformancePipe.ReadRequestAsync(input) is { } request)
{
    var response = await testee.RunAsync(request);
    tally.Add(request, response);
    await ConformancePipe.WriteResponseAsync(output, response);
}

if (Environment.GetEnvironmentVariable("PROTOHTTP_CONFORMANCE_TALLY") is { Length: > 0 } tallyPath)
{
    tally.WriteTo(tallyPath);
}

return 0;

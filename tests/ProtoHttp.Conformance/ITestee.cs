using Conformance;

namespace ProtoHttp.Conformance;

/// <summary>Runs one conformance case and says what came of it.</summary>
internal interface ITestee : IAsyncDisposable
{
    Task<ConformanceResponse> RunAsync(ConformanceRequest request);
}

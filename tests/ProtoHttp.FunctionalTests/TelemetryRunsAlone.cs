namespace ProtoHttp.FunctionalTests;

/// <summary>Runs <see cref="TelemetryTests"/> after, not beside, the other test classes.</summary>
[CollectionDefinition(nameof(TelemetryTests), DisableParallelization = true)]
public sealed class TelemetryRunsAlone;

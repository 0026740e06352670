using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>A service whose .proto is compiled but not embedded.</summary>
public sealed class NotEmbeddedService : NotEmbedded.NotEmbeddedBase;

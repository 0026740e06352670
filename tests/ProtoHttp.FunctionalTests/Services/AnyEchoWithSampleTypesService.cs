namespace ProtoHttp.FunctionalTests.Services;

/// <summary>The same echo under its own options, whose <c>AnyTypes</c> add the sample's types from outside its file.</summary>
public sealed class AnyEchoWithSampleTypesService : AnyEchoService;

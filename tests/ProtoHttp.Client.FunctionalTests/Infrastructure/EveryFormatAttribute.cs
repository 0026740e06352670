using System.Reflection;
using Xunit.Sdk;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>Runs a theory in every format a client can call in: protobuf, JSON and XML.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class EveryFormatAttribute : DataAttribute
{
    public override IEnumerable<object[]> GetData(MethodInfo testMethod) =>
        [[CodecNames.Protobuf], [CodecNames.Json], [CodecNames.Xml]];
}

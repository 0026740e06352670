using System.Reflection;
using Xunit.Sdk;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>Runs a theory in the formats every build of ProtoHttp writes: protobuf and JSON.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class EveryFormatAttribute : DataAttribute
{
    public override IEnumerable<object[]> GetData(MethodInfo testMethod) =>
        [[MessageFormat.Protobuf], [MessageFormat.Json]];
}

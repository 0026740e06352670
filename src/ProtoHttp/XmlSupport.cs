using System.Diagnostics.CodeAnalysis;

namespace ProtoHttp;

/// <summary>
/// The feature switch that leaves the built-in XML codec out of an app (README, "Native AOT"): an app that never speaks XML sets
/// <c>&lt;RuntimeHostConfigurationOption Include="ProtoHttp.Xml.IsSupported" Value="false" Trim="true" /&gt;</c>, and the
/// trimmer and Native AOT see <see cref="IsSupported"/> as the constant <see langword="false"/>, so the codec, its
/// plans and the framework's XML reader are not compiled in. Its registry then has no XML codec: an XML body is
/// refused 415 and an <c>Accept</c> that only takes XML 406, as for any type no codec reads or writes.
/// </summary>
internal static class XmlSupport
{
    public const string SwitchName = "ProtoHttp.Xml.IsSupported";

    /// <summary>Whether the XML codec is built into each registry; on unless the app turned the switch off.</summary>
    [FeatureSwitchDefinition(SwitchName)]
    public static bool IsSupported { get; } = !AppContext.TryGetSwitch(SwitchName, out var enabled) || enabled;
}

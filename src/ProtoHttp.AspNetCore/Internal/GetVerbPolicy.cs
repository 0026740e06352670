using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>Whether a method's ProtoHttp routes answer GET, one rule for the handlers and for what describes them.</summary>
internal static class GetVerbPolicy
{
    /// <summary>
    /// GET carries one request message in the query string, so only methods that take one can have it; among those,
    /// all unless GET is restricted (<see cref="ProtoHttpOptions.RestrictGetToNoSideEffectMethods"/>, or its default
    /// where the app uses ambient credentials) to methods the .proto declares free of side effects.
    /// </summary>
    public static bool Allows(MethodDescriptor method, bool restrictGet) =>
        !method.IsClientStreaming && (!restrictGet || HasNoSideEffects(method));

    /// <summary>Whether the .proto marks the method <c>option idempotency_level = NO_SIDE_EFFECTS;</c>.</summary>
    public static bool HasNoSideEffects(MethodDescriptor method) =>
        method.GetOptions()?.IdempotencyLevel == MethodOptions.Types.IdempotencyLevel.NoSideEffects;
}

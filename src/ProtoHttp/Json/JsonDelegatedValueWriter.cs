namespace ProtoHttp.Json;

/// <summary>A value JsonFormatter writes (well-known types other than Timestamp), so its rules never need guessing.</summary>
internal sealed class JsonDelegatedValueWriter<T>(JsonMessageWriter owner) : JsonValueWriter<T>
    where T : class
{
    public override void Write(ref Utf8Output output, T value) => owner.WriteDelegated(ref output, value);
}

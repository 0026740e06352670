using Google.Protobuf;

namespace ProtoHttp.Json;

/// <summary>A value JsonFormatter writes (well-known types other than Timestamp), so its rules never need guessing.</summary>
internal sealed class JsonDelegatedValueWriter(JsonMessageWriter owner) : JsonValueWriter<IMessage>
{
    public override void Write(ref Utf8Output output, IMessage value) => owner.WriteDelegated(ref output, value);
}

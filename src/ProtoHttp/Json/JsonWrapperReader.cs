namespace ProtoHttp.Json;

/// <summary>A numeric or bool wrapper (Int32Value and kin), which C# exposes as a nullable scalar: read as the bare scalar.</summary>
internal sealed class JsonWrapperReader<T>(JsonValueReader<T> scalar) : JsonValueReader<T?>
    where T : struct
{
    public override bool TryRead(ref JsonInput input, int depth, out T? value)
    {
        var read = scalar.TryRead(ref input, depth, out var inner);
        value = inner;
        return read;
    }
}

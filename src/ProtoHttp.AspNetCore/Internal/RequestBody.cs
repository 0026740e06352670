using System.Buffers;
using System.IO.Pipelines;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>A whole request body: either still in the request pipe, or in a pooled array. Dispose it once parsed.</summary>
internal readonly struct RequestBody(ReadOnlySequence<byte> data, PipeReader? reader, byte[]? pooled) : IDisposable
{
    public ReadOnlySequence<byte> Data { get; } = data;

    public void Dispose()
    {
        if (reader is not null)
        {
            reader.AdvanceTo(Data.End);
        }
        else if (pooled is not null)
        {
            ArrayPool<byte>.Shared.Return(pooled);
        }
    }
}

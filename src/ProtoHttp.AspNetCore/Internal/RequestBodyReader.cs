using System.Buffers;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Reads a whole request body, never past the limit. Bodies up to <c>inPlaceLimit</c> are parsed straight from the
/// request pipe; a larger one is copied into a pooled buffer as it arrives, because data left unconsumed in the pipe
/// counts against the server's own buffer limits and would stall the upload (<see cref="InPlaceBodyLimit"/>).
/// </summary>
internal static class RequestBodyReader
{
    /// <exception cref="CallRejectedException">The body is over the limit (413).</exception>
    public static ValueTask<RequestBody> ReadAsync(HttpContext context, long limit, long inPlaceLimit, CancellationToken cancellationToken)
    {
        var declared = context.Request.ContentLength;
        if (declared > limit)
        {
            throw CallRejectedException.TooLarge(limit);
        }

        var sizeFeature = context.Features.Find<IHttpMaxRequestBodySizeFeature>();
        if (sizeFeature is { IsReadOnly: false } && sizeFeature.MaxRequestBodySize < limit)
        {
            // Our limit is the one that answers; Kestrel's default (30 MB) must not cut in first.
            sizeFeature.MaxRequestBodySize = limit;
        }

        cancellationToken.ThrowIfCancellationRequested();
        var reader = context.Request.BodyReader;

        // A small body usually came with the headers: then it is read without a state machine.
        return CancellableBodyRead.TryReadWhole(reader, out var whole)
            ? new ValueTask<RequestBody>(InPlace(reader, whole.Buffer, limit))
            : ReadArrivingAsync(reader, declared, limit, inPlaceLimit, cancellationToken);
    }

    private static async ValueTask<RequestBody> ReadArrivingAsync(
        PipeReader reader, long? declared, long limit, long inPlaceLimit, CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await CancellableBodyRead.ReadAsync(reader, cancellationToken);
            var buffer = result.Buffer;
            if (result.IsCompleted)
            {
                return InPlace(reader, buffer, limit);
            }

            if (buffer.Length > limit)
            {
                reader.AdvanceTo(buffer.Start, buffer.End);
                throw CallRejectedException.TooLarge(limit);
            }

            if (buffer.Length >= inPlaceLimit)
            {
                return await CopyToPooledAsync(reader, buffer, declared, limit, cancellationToken);
            }

            reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    // The whole body, left in the pipe for the caller to parse there.
    private static RequestBody InPlace(PipeReader reader, ReadOnlySequence<byte> buffer, long limit)
    {
        if (buffer.Length > limit)
        {
            reader.AdvanceTo(buffer.Start, buffer.End);
            throw CallRejectedException.TooLarge(limit);
        }

        return new RequestBody(buffer, reader, pooled: null);
    }

    private static async ValueTask<RequestBody> CopyToPooledAsync(
        PipeReader reader, ReadOnlySequence<byte> first, long? declared, long limit, CancellationToken cancellationToken)
    {
        var array = ArrayPool<byte>.Shared.Rent((int)Math.Max(declared ?? 0, first.Length * 2));
        var length = 0;
        try
        {
            var buffer = first;
            while (true)
            {
                if (length + buffer.Length > limit)
                {
                    reader.AdvanceTo(buffer.End);
                    throw CallRejectedException.TooLarge(limit);
                }

                if (length + buffer.Length > array.Length)
                {
                    var larger = ArrayPool<byte>.Shared.Rent((int)Math.Min(limit, Math.Max(array.Length * 2L, length + buffer.Length)));
                    array.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(array);
                    array = larger;
                }

                buffer.CopyTo(array.AsSpan(length));
                length += (int)buffer.Length;
                reader.AdvanceTo(buffer.End);

                var result = await CancellableBodyRead.ReadAsync(reader, cancellationToken);
                buffer = result.Buffer;
                if (result.IsCompleted && buffer.IsEmpty)
                {
                    reader.AdvanceTo(buffer.End);
                    return new RequestBody(new ReadOnlySequence<byte>(array, 0, length), reader: null, array);
                }
            }
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(array);
            throw;
        }
    }
}

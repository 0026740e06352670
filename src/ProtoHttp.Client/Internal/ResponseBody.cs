using System.Buffers;
using System.IO.Pipelines;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// A response body read whole into the pooled segments of a <see cref="PipeReader"/> over the response stream: the
/// codecs parse it from there, so no second buffer holds it. Disposing returns the segments.
/// </summary>
internal sealed class ResponseBody : IDisposable
{
    private readonly PipeReader _reader;

    private ResponseBody(PipeReader reader, ReadOnlySequence<byte> data, bool truncated)
    {
        _reader = reader;
        Data = data;
        Truncated = truncated;
    }

    public ReadOnlySequence<byte> Data { get; }

    /// <summary>Whether the body went on past the limit and <see cref="Data"/> holds only its start.</summary>
    public bool Truncated { get; }

    /// <summary>Reads the body to its end.</summary>
    /// <param name="content">The response content, opened with <c>ResponseHeadersRead</c>.</param>
    /// <param name="limit">The most bytes to hold, or <see langword="null"/> for no limit.</param>
    /// <param name="truncate">Keep the first <paramref name="limit"/> bytes of a longer body instead of failing.</param>
    /// <param name="cancellationToken">Cancels the read.</param>
    /// <exception cref="RpcException"><c>ResourceExhausted</c>: the body is over the limit and <paramref name="truncate"/> is off.</exception>
    public static async Task<ResponseBody> ReadAsync(HttpContent content, long? limit, bool truncate, CancellationToken cancellationToken)
    {
        if (!truncate && limit is { } declaredLimit && content.Headers.ContentLength > declaredLimit)
        {
            throw TooLarge(declaredLimit);
        }

        var stream = await content.ReadAsStreamAsync(cancellationToken).ConfigureAwait(false);
        var reader = PipeReader.Create(stream);
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync(cancellationToken).ConfigureAwait(false);
                var buffer = result.Buffer;
                if (limit is { } max && buffer.Length > max)
                {
                    return truncate ? new ResponseBody(reader, buffer.Slice(0, max), truncated: true) : throw TooLarge(max);
                }

                if (result.IsCompleted)
                {
                    return new ResponseBody(reader, buffer, truncated: false);
                }

                // Nothing consumed, everything examined: the next read waits for more and appends it.
                reader.AdvanceTo(buffer.Start, buffer.End);
            }
        }
        catch
        {
            await reader.CompleteAsync().ConfigureAwait(false);
            throw;
        }
    }

    public void Dispose() => _reader.Complete();

    private static RpcException TooLarge(long limit) => new(new Status(
        StatusCode.ResourceExhausted,
        $"The response body is larger than ProtoHttpClientOptions.MaxResponseSize ({limit} bytes)."));
}

using System.Buffers;
using System.IO.Pipelines;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Server.Kestrel.Core.Features;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>
/// The <see cref="IAsyncStreamReader{T}"/> a client-streaming or bidirectional service reads its requests from:
/// envelopes (Connect's framing, whatever the protocol) read one at a time from the request body as they arrive, each at most the request size limit. A malformed
/// envelope is the client's fault: kept in <see cref="Fault"/>, so the call answers it whatever the service made of the
/// exception it was thrown.
/// </summary>
internal sealed class EnvelopeStreamReader<TRequest>(
    PipeReader body, IMessageReader codec, MessageDescriptor descriptor, MessageCodecs serviceCodecs, long limit, long inPlaceLimit, CancellationToken callToken)
    : IAsyncStreamReader<TRequest>, IRequestStream
    where TRequest : class
{
    private bool _finished;
    private Task<bool>? _reading;

    public TRequest Current { get; private set; } = null!;

    /// <summary>Whether envelopes flagged compressed (0x01) hold gzip, as the client and the call's protocol agreed.</summary>
    public bool CompressionAgreed { get; init; }

    /// <summary>The codes of the call's protocol for malformed envelopes.</summary>
    public EnvelopeRules Rules { get; init; } = EnvelopeRules.Plain;

    /// <summary>What was wrong with the request stream, if anything was.</summary>
    public CallRejectedException? Fault { get; private set; }

    /// <summary>
    /// Opens the request stream of <paramref name="call"/>, which lasts as long as the call: the per-message limit bounds
    /// memory, so Kestrel's limits on the whole body (size, minimum rate) must not end it.
    /// </summary>
    /// <param name="call">The call.</param>
    /// <param name="reader">The codec of the envelopes' payloads.</param>
    /// <param name="compressionAgreed">Whether envelopes flagged compressed hold gzip, as the client and the protocol agreed.</param>
    public static EnvelopeStreamReader<TRequest> Open(ProtoHttpServerCallContext call, MessageCodec reader, bool compressionAgreed)
    {
        var context = call.HttpContext;
        if (context.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } size)
        {
            size.MaxRequestBodySize = null;
        }

        if (context.Features.Get<IHttpMinRequestBodyDataRateFeature>() is { } rate)
        {
            rate.MinDataRate = null;
        }

        var settings = call.Route.Settings;
        return new EnvelopeStreamReader<TRequest>(context.Request.BodyReader, reader, call.Route.Descriptor.InputType,
            settings.Codecs, settings.Options.MaxRequestBodySize, settings.InPlaceBodyLimit, call.CancellationToken)
        {
            CompressionAgreed = compressionAgreed,
            Rules = call.Route.Protocol.Envelopes,
        };
    }

    public Task<bool> MoveNext(CancellationToken cancellationToken) => _reading = MoveNextCoreAsync(cancellationToken);

    /// <summary>
    /// Ends a read still in flight when the call is over: on its deadline the call ends without waiting for the service,
    /// which may still be reading, and a read left pending on the body makes Kestrel's drain of the rest of the body
    /// fail (an Error log, the connection closed). The read is woken with <see cref="PipeReader.CancelPendingRead"/>.
    /// </summary>
    public async Task StopAsync()
    {
        if (_reading is not { IsCompleted: false } reading)
        {
            return;
        }

        try
        {
            body.CancelPendingRead();
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException)
        {
            // The request has ended (the reader disposed, or the client's reset rethrown): the read is over with it.
            return;
        }

        try
        {
            await reading.WaitAsync(TimeSpan.FromSeconds(1));
        }
        catch (Exception)
        {
            // The read ended as the call did (canceled, or whatever the service was told); nobody is left to tell.
        }
    }

    private async Task<bool> MoveNextCoreAsync(CancellationToken cancellationToken)
    {
        if (Fault is not null)
        {
            throw Fault;
        }

        if (_finished)
        {
            return false;
        }

        using var linked = cancellationToken.CanBeCanceled ? CancellationTokenSource.CreateLinkedTokenSource(callToken, cancellationToken) : null;
        var token = linked?.Token ?? callToken;
        while (true)
        {
            var result = await CancellableBodyRead.ReadAsync(body, token);
            var buffer = result.Buffer;
            if (Envelope.TryReadHeader(buffer, out var flags, out var length))
            {
                if (CheckHeader(flags, length) is { } fault)
                {
                    // The rest of the body means nothing now; the read must end before the call answers.
                    body.AdvanceTo(buffer.End);
                    throw fault;
                }

                var size = Envelope.HeaderLength + (long)length;
                if (buffer.Length >= size)
                {
                    try
                    {
                        Current = Parse(buffer.Slice(Envelope.HeaderLength, length), flags);
                    }
                    finally
                    {
                        body.AdvanceTo(buffer.GetPosition(size));
                    }

                    return true;
                }

                if (size > inPlaceLimit)
                {
                    // Bytes left in the pipe hold back the server's buffers and HTTP/2's window: copy a large one out.
                    body.AdvanceTo(buffer.GetPosition(Envelope.HeaderLength));
                    Current = await ReadLargeAsync((int)length, flags, token);
                    return true;
                }
            }

            if (result.IsCompleted)
            {
                body.AdvanceTo(buffer.End);
                if (buffer.IsEmpty)
                {
                    _finished = true;
                    return false;
                }

                throw Reject(CallRejectedException.BadRequest(
                    $"The request body ends inside an envelope: {buffer.Length} bytes arrived of the envelope that starts there."));
            }

            body.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private CallRejectedException? CheckHeader(byte flags, uint length)
    {
        if (SingleEnvelope.CheckFlags(flags, CompressionAgreed, Rules) is { } fault)
        {
            return Reject(fault);
        }

        return length > limit
            ? Reject(new CallRejectedException(StatusCodes.Status413PayloadTooLarge, StatusCode.ResourceExhausted,
                $"A request envelope holds {length} bytes, more than the limit of {limit} bytes per message."))
            : null;
    }

    private async Task<TRequest> ReadLargeAsync(int length, byte flags, CancellationToken token)
    {
        var array = ArrayPool<byte>.Shared.Rent(length);
        try
        {
            var filled = 0;
            while (filled < length)
            {
                var result = await CancellableBodyRead.ReadAsync(body, token);
                var buffer = result.Buffer;
                var take = (int)Math.Min(buffer.Length, length - filled);
                buffer.Slice(0, take).CopyTo(array.AsSpan(filled));
                filled += take;
                body.AdvanceTo(buffer.GetPosition(take));
                if (filled < length && result.IsCompleted)
                {
                    throw Reject(CallRejectedException.BadRequest(
                        $"The request body ends inside an envelope: {filled} of its {length} bytes of payload arrived."));
                }
            }

            return Parse(new ReadOnlySequence<byte>(array, 0, length), flags);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(array);
        }
    }

    private TRequest Parse(ReadOnlySequence<byte> payload, byte flags)
    {
        try
        {
            var message = flags == Envelope.CompressedFlag
                ? GzipPayloads.ReadMessage(codec, payload, descriptor, limit)
                : codec.Read(payload, descriptor);
            serviceCodecs.CheckRequiredFields(message);
            return (TRequest)message;
        }
        catch (InvalidMessageException ex)
        {
            throw Reject(CallRejectedException.BadRequest($"A request envelope does not hold a valid message: {ex.Message}"));
        }
        catch (CallRejectedException ex)
        {
            throw Reject(ex); // gzip that is not gzip, or inflates past the limit.
        }
    }

    private CallRejectedException Reject(CallRejectedException fault)
    {
        _finished = true;
        Fault = fault;
        return fault;
    }
}

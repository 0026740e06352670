using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Pipeline;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>
/// Reads the request of a server-streaming call sent as exactly one envelope, as Connect clients send it; flagged
/// compressed, it holds gzip when the call's protocol agreed on it with the client.
/// </summary>
internal static class SingleEnvelope
{
    /// <exception cref="CallRejectedException">
    /// The body is not one well-formed envelope (400, no envelope or more than one with the protocol's
    /// <see cref="EnvelopeRules.CountFault"/>) or is over the limit (413).
    /// </exception>
    /// <param name="call">The call.</param>
    /// <param name="reader">The codec of the envelope's payload.</param>
    /// <param name="compressionAgreed">Whether an envelope flagged compressed holds gzip, as the client and the protocol agreed.</param>
    /// <param name="cancellationToken">Cancels the read.</param>
    public static async ValueTask<IMessage> ReadAsync(ProtoHttpServerCallContext call, MessageCodec reader, bool compressionAgreed, CancellationToken cancellationToken)
    {
        var settings = call.Route.Settings;
        var rules = call.Route.Protocol.Envelopes;
        var limit = settings.Options.MaxRequestBodySize;
        using var body = await RequestBodyReader.ReadAsync(call.HttpContext, limit + Envelope.HeaderLength, settings.InPlaceBodyLimit, cancellationToken);
        var data = body.Data;
        if (data.IsEmpty && rules.CountFault != StatusCode.InvalidArgument)
        {
            throw new CallRejectedException(StatusCodes.Status400BadRequest, rules.CountFault,
                "The request body holds no envelope; a server-streaming call takes exactly one request message.");
        }

        if (!Envelope.TryReadHeader(data, out var flags, out var length))
        {
            throw CallRejectedException.BadRequest($"The request body holds {data.Length} bytes; an envelope needs a 5-byte header.");
        }

        if (CheckFlags(flags, compressionAgreed, rules) is { } fault)
        {
            throw fault;
        }

        if (length > limit)
        {
            throw CallRejectedException.TooLarge(limit);
        }

        if (data.Length != Envelope.HeaderLength + (long)length)
        {
            var text = $"The request envelope says it holds {length} bytes, but the body has {data.Length - Envelope.HeaderLength} after the header; send exactly one envelope.";
            throw data.Length > Envelope.HeaderLength + (long)length
                ? new CallRejectedException(StatusCodes.Status400BadRequest, rules.CountFault, text)
                : CallRejectedException.BadRequest(text);
        }

        var descriptor = call.Route.Descriptor.InputType;
        var message = flags != Envelope.CompressedFlag
            ? reader.Read(data.Slice(Envelope.HeaderLength), descriptor)
            : GzipPayloads.ReadMessage(reader, data.Slice(Envelope.HeaderLength), descriptor, limit);
        settings.Codecs.CheckRequiredFields(message);
        return message;
    }

    /// <summary>
    /// What is wrong with a request envelope's flags, if anything: a request message's are 0x00, or 0x01 when gzip was
    /// agreed. A compressed flag without an agreed compression has the protocol's
    /// <see cref="EnvelopeRules.UnagreedCompressionFault"/>.
    /// </summary>
    public static CallRejectedException? CheckFlags(byte flags, bool compressionAgreed, EnvelopeRules rules)
    {
        if (flags == Envelope.MessageFlag || compressionAgreed && flags == Envelope.CompressedFlag)
        {
            return null;
        }

        if (flags != Envelope.CompressedFlag)
        {
            return CallRejectedException.BadRequest($"A request envelope has the flags 0x{flags:x2}; a request message's envelope has the flags 0x00.");
        }

        return new CallRejectedException(StatusCodes.Status400BadRequest, rules.UnagreedCompressionFault,
            "A request envelope has the compressed flag (0x01), but no compression was agreed (Connect-Content-Encoding); send flag 0x00.");
    }
}

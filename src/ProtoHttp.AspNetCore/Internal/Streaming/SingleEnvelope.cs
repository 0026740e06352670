using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// Reads the request of a server-streaming call sent as exactly one envelope, as Connect clients send it; flagged
/// compressed, it holds gzip when the plan says the client's Connect-Content-Encoding agreed on it.
/// </summary>
internal static class SingleEnvelope
{
    /// <exception cref="CallRejectedException">
    /// The body is not one well-formed envelope (400; at a Connect path, no envelope or more than one is
    /// <c>unimplemented</c>, as connect_server_unexpected.yaml has it) or is over the limit (413).
    /// </exception>
    public static async ValueTask<IMessage> ReadAsync<TService>(
        HttpContext context, StreamRequestPlan plan, MessageDescriptor descriptor, ServiceCallSettings<TService> settings, CancellationToken cancellationToken)
        where TService : class
    {
        var limit = settings.Options.MaxRequestBodySize;
        using var body = await RequestBodyReader.ReadAsync(context, limit + Envelope.HeaderLength, settings.InPlaceBodyLimit, cancellationToken);
        var data = body.Data;
        if (data.IsEmpty && plan.Connect)
        {
            throw new CallRejectedException(StatusCodes.Status400BadRequest, StatusCode.Unimplemented,
                "The request body holds no envelope; a server-streaming call takes exactly one request message.");
        }

        if (!Envelope.TryReadHeader(data, out var flags, out var length))
        {
            throw CallRejectedException.BadRequest($"The request body holds {data.Length} bytes; an envelope needs a 5-byte header.");
        }

        if (CheckFlags(flags, plan) is { } fault)
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
            throw data.Length > Envelope.HeaderLength + (long)length && plan.Connect
                ? new CallRejectedException(StatusCodes.Status400BadRequest, StatusCode.Unimplemented, text)
                : CallRejectedException.BadRequest(text);
        }

        var reader = plan.Reader!;
        if (flags != Envelope.CompressedFlag)
        {
            return reader.Read(data.Slice(Envelope.HeaderLength), descriptor);
        }

        return Connect.ConnectCompression.ReadGzipped(reader, data.Slice(Envelope.HeaderLength), descriptor, limit);
    }

    /// <summary>
    /// What is wrong with a request envelope's flags, if anything: a request message's are 0x00, or 0x01 when gzip was
    /// agreed. A compressed flag without an agreed compression is <c>internal</c> at a Connect path, as
    /// connect_server_unexpected.yaml (unexpected-compressed-message) has it.
    /// </summary>
    public static CallRejectedException? CheckFlags(byte flags, StreamRequestPlan plan)
    {
        if (flags == Envelope.MessageFlag || plan.Gzip && flags == Envelope.CompressedFlag)
        {
            return null;
        }

        if (flags != Envelope.CompressedFlag)
        {
            return CallRejectedException.BadRequest($"A request envelope has the flags 0x{flags:x2}; a request message's envelope has the flags 0x00.");
        }

        var text = $"A request envelope has the compressed flag (0x01), but no {Connect.ConnectStreamHeaders.ContentEncoding} was agreed; send flag 0x00.";
        return plan.Connect
            ? new CallRejectedException(StatusCodes.Status400BadRequest, StatusCode.Internal, text)
            : CallRejectedException.BadRequest(text);
    }
}

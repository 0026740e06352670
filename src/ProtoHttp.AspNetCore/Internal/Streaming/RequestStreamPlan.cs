using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core.Features;
using Microsoft.AspNetCore.Http.Features;
using ProtoHttp.Streaming;

namespace ProtoHttp.AspNetCore.Internal.Streaming;

/// <summary>
/// The request side of client-streaming and bidirectional calls: POST with a body of envelopes, read for as long as
/// the call lasts.
/// </summary>
internal static class RequestStreamPlan
{
    /// <exception cref="CallRejectedException">Not a POST (405) or not an envelope body (415).</exception>
    public static StreamRequestPlan For(HttpRequest request, MessageCodecs codecs, StreamAcceptNegotiator streams)
    {
        if (!HttpMethods.IsPost(request.Method))
        {
            throw CallRejectedException.MethodNotAllowed(request.Method, "POST");
        }

        if (streams.EnvelopeType(request.ContentType, codecs) is not { } envelope)
        {
            var named = string.IsNullOrEmpty(request.ContentType) ? "The request has no Content-Type" : $"The Content-Type '{request.ContentType}' is not an envelope stream";
            var envelopeTypes = StreamMediaTypes.EnvelopeTypes(codecs);
            throw new CallRejectedException(StatusCodes.Status415UnsupportedMediaType, Grpc.Core.StatusCode.InvalidArgument,
                $"{named}; a client-streaming or bidirectional method reads {envelopeTypes}.")
            {
                Hint = new("Accept-Post", envelopeTypes),
            };
        }

        return new StreamRequestPlan(IsGet: false, envelope.Codec, envelope, envelope);
    }

    /// <summary>
    /// A request stream lasts as long as the call, which may be idle for long: the per-message limit bounds memory, so
    /// Kestrel's limits on the whole body (size, minimum rate) must not end it.
    /// </summary>
    public static void LiftBodyLimits(HttpContext context)
    {
        if (context.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } size)
        {
            size.MaxRequestBodySize = null;
        }

        if (context.Features.Get<IHttpMinRequestBodyDataRateFeature>() is { } rate)
        {
            rate.MinDataRate = null;
        }
    }
}

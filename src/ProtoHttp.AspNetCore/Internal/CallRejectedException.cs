using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// A request the server itself refuses before or while reading it (404, 405, 406, 413, 415, 400): the client's fault,
/// so its message always reaches the client and it logs at Information.
/// </summary>
internal sealed class CallRejectedException(int httpStatus, StatusCode code, string message) : Exception(message)
{
    public int HttpStatus { get; } = httpStatus;

    public StatusCode Code { get; } = code;

    /// <summary>Headers that tell the client what would work: <c>Allow</c> for 405, <c>Accept-Post</c> for 415.</summary>
    public KeyValuePair<string, string>? Hint { get; init; }

    /// <summary>
    /// Whether no format the client accepts can carry the refusal: a 406 of the <c>Accept</c> header, which the protocol
    /// tells in a format of its own choosing (<see cref="Pipeline.CallFailure.NoAcceptedFormat"/>).
    /// </summary>
    public bool NoAcceptedFormat { get; init; }

    public static CallRejectedException MethodNotAllowed(string verb, string allow) =>
        new(StatusCodes.Status405MethodNotAllowed, StatusCode.Unimplemented, $"The HTTP method {verb} is not allowed here; use {allow}.")
        {
            Hint = new("Allow", allow),
        };

    /// <summary>A 415 whose <c>Accept-Post</c> lists every type the service's <paramref name="codecs"/> read.</summary>
    public static CallRejectedException UnsupportedMediaType(string message, MessageCodecs codecs) => UnsupportedMediaType(message, codecs.AcceptPost);

    /// <summary>A 415 whose <c>Accept-Post</c> is <paramref name="acceptPost"/>: the types the endpoint's protocol reads there.</summary>
    public static CallRejectedException UnsupportedMediaType(string message, string acceptPost) =>
        new(StatusCodes.Status415UnsupportedMediaType, StatusCode.InvalidArgument, message)
        {
            Hint = new("Accept-Post", acceptPost),
        };

    /// <summary>A 406 whose sentence names every type the service's <paramref name="codecs"/> write.</summary>
    public static CallRejectedException NotAcceptable(MessageCodecs codecs) =>
        new(StatusCodes.Status406NotAcceptable, StatusCode.InvalidArgument,
            $"None of the media types in the Accept header can be written; this service writes {string.Join(", ", codecs.Writable.Select(t => t.MediaType))}.")
        {
            NoAcceptedFormat = true,
        };

    public static CallRejectedException TooLarge(long limit) =>
        new(StatusCodes.Status413PayloadTooLarge, StatusCode.ResourceExhausted,
            $"The request body is larger than the limit of {limit} bytes.");

    public static CallRejectedException BadRequest(string message) =>
        new(StatusCodes.Status400BadRequest, StatusCode.InvalidArgument, message);
}

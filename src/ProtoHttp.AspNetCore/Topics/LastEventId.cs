using Grpc.Core;

namespace ProtoHttp.AspNetCore.Topics;

/// <summary>Where a resuming stream starts: the <c>Last-Event-ID</c> request header (docs/protocol.md, "Topics: streams that resume").</summary>
internal static class LastEventId
{
    public const string HeaderName = "Last-Event-ID";

    /// <summary>The position after which the stream resumes, or <see langword="null"/> for a stream that starts live.</summary>
    /// <exception cref="RpcException"><c>INVALID_ARGUMENT</c>: the header is there but is not a position.</exception>
    public static TopicPosition? Read(ServerCallContext context)
    {
        var text = context.GetProtoHttpContext() is { } http
            ? http.Request.Headers[HeaderName].ToString()
            : context.RequestHeaders.GetValue("last-event-id");
        if (string.IsNullOrEmpty(text))
        {
            return null;
        }

        if (!TopicPosition.TryParse(text.Trim(), out var position))
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument,
                $"The {HeaderName} header is not an event id of this stream: ids look like 1718000000000-0 (two numbers and a dash), as each event's id: carries them."));
        }

        return position;
    }
}

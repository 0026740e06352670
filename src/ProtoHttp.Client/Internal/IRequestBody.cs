namespace ProtoHttp.Client.Internal;

/// <summary>
/// Where a <see cref="RequestStreamWriter{TRequest}"/> writes a streaming call's request envelopes: an HTTP request body
/// (<see cref="RequestStreamContent"/>) or a WebSocket, one message per envelope (<see cref="WebSocketRequestBody"/>).
/// </summary>
internal interface IRequestBody
{
    /// <summary>The stream the envelopes are written to, once the transport is ready for them.</summary>
    Task<Stream> Stream { get; }

    /// <summary>The client has sent its last request: the transport says so to the server.</summary>
    Task CompleteAsync();

    /// <summary>The call ended before or while the requests were sent: a writer still waiting for the stream gives up.</summary>
    void Abort();
}

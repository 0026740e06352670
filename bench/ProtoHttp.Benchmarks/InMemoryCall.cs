using System.Buffers;
using System.IO.Pipelines;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// One HTTP exchange in memory, the way Kestrel presents it to an endpoint: the request body arrives through a pipe and
/// the response goes out through a pipe. The pipes are reused call after call, so what a benchmark allocates is what
/// the endpoint and <see cref="DefaultHttpContext"/> allocate. It is also the request's lifetime feature, as Kestrel's
/// connection is: without one, <see cref="DefaultHttpContext"/> makes a feature on the first read of
/// <c>RequestAborted</c> in each request, which no real server pays.
/// </summary>
internal sealed class InMemoryCall : IRequestBodyPipeFeature, IHttpResponseBodyFeature, IHttpRequestLifetimeFeature, IHttpRequestBodyDetectionFeature
{
    // No back-pressure: the benchmark drains the response only after the endpoint returns.
    private static readonly PipeOptions Unbounded = new(pauseWriterThreshold: 0, resumeWriterThreshold: 0, useSynchronizationContext: false);

    private readonly Pipe _request = new(Unbounded);
    private readonly Pipe _response = new(Unbounded);
    private readonly IServiceProvider _services;
    private readonly CancellationTokenSource _aborted = new();
    private Stream? _responseStream;
    private Stream? _requestStream;
    private bool _hasBody;

    public InMemoryCall(IServiceProvider services) => _services = services;

    PipeReader IRequestBodyPipeFeature.Reader => _request.Reader;

    bool IHttpRequestBodyDetectionFeature.CanHaveBody => _hasBody;

    Stream IHttpResponseBodyFeature.Stream => _responseStream ??= _response.Writer.AsStream(leaveOpen: true);

    PipeWriter IHttpResponseBodyFeature.Writer => _response.Writer;

    CancellationToken IHttpRequestLifetimeFeature.RequestAborted
    {
        get => _aborted.Token;
        set => throw new NotSupportedException();
    }

    /// <summary>Sends one request to <paramref name="endpoint"/> and returns its status and the response body's length.</summary>
    public Task<(int Status, long Length)> SendAsync(RequestDelegate endpoint, string method, string path, string? contentType, byte[] body, string query = "", string? accept = null) =>
        SendAsync(endpoint, routed: null, method, path, contentType, body, query, accept);

    /// <summary>Sends one request to <paramref name="endpoint"/>, set on the request as routing sets the endpoint it matched.</summary>
    public Task<(int Status, long Length)> SendAsync(Endpoint endpoint, string method, string path, string? contentType, byte[] body, string query = "", string? accept = null) =>
        SendAsync(endpoint.RequestDelegate!, endpoint, method, path, contentType, body, query, accept);

    private async Task<(int Status, long Length)> SendAsync(RequestDelegate endpoint, Endpoint? routed, string method, string path, string? contentType, byte[] body, string query, string? accept)
    {
        var context = new DefaultHttpContext { RequestServices = _services };
        if (routed is not null)
        {
            context.SetEndpoint(routed);
        }

        context.Features.Set<IRequestBodyPipeFeature>(this);
        context.Features.Set<IHttpResponseBodyFeature>(this);
        context.Features.Set<IHttpRequestLifetimeFeature>(this);
        // As Kestrel's: a request with a body says so (Minimal API reads a JSON body only then).
        context.Features.Set<IHttpRequestBodyDetectionFeature>(this);
        _hasBody = body.Length > 0;
        var request = context.Request;
        // Kestrel offers the body as a stream too, which Minimal API's JSON binding reads.
        request.Body = _requestStream ??= _request.Reader.AsStream(leaveOpen: true);
        request.Method = method;
        request.Protocol = "HTTP/1.1";
        request.Path = path; // the handler checks the method name's case against the path, as routing does not
        request.QueryString = new QueryString(query);
        if (accept is not null)
        {
            request.Headers.Accept = accept;
        }

        if (contentType is not null)
        {
            request.ContentType = contentType;
            request.ContentLength = body.Length;
        }

        if (body.Length > 0)
        {
            // An empty write would still take a segment from the pipe: a GET has no body to send, as on a socket.
            _request.Writer.Write(body);
        }

        await _request.Writer.CompleteAsync();
        try
        {
            await endpoint(context);
        }
        finally
        {
            await _request.Reader.CompleteAsync();
            _request.Reset();
        }

        return (context.Response.StatusCode, Drain());
    }

    private long Drain()
    {
        if (!_response.Reader.TryRead(out var result))
        {
            return 0;
        }

        var length = result.Buffer.Length;
        _response.Reader.AdvanceTo(result.Buffer.End);
        return length;
    }

    void IHttpResponseBodyFeature.DisableBuffering()
    {
    }

    Task IHttpResponseBodyFeature.StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    Task IHttpResponseBodyFeature.SendFileAsync(string path, long offset, long? count, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    Task IHttpResponseBodyFeature.CompleteAsync() => Task.CompletedTask;

    void IHttpRequestLifetimeFeature.Abort() => throw new NotSupportedException();
}

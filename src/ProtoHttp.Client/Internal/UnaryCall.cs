using Google.Protobuf;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// One unary call: sends the request, turns the answer or the failure into the call's outcome, and keeps the
/// status, headers and trailers the generated client's <see cref="AsyncUnaryCall{TResponse}"/> asks for.
/// </summary>
internal sealed class UnaryCall<TRequest, TResponse> : ClientCall<TRequest, TResponse>, IUnaryOutcome
    where TRequest : class
    where TResponse : class
{
    private UnaryCall(ClientMethod method, CallOptions options)
        : base(method, options)
    {
    }

    public static AsyncUnaryCall<TResponse> Start(HttpClient httpClient, ClientMethod method, CallOptions options, TRequest request)
    {
        var call = new UnaryCall<TRequest, TResponse>(method, options);
        var response = call.RunAsync(httpClient, request);
        return new AsyncUnaryCall<TResponse>(
            response,
            static state => ((UnaryCall<TRequest, TResponse>)state).ResponseHeadersAsync,
            static state => ((UnaryCall<TRequest, TResponse>)state).GetStatus(),
            static state => ((UnaryCall<TRequest, TResponse>)state).GetTrailers(),
            static state => ((UnaryCall<TRequest, TResponse>)state).Dispose(),
            call);
    }

    void IUnaryOutcome.Succeed(Metadata trailers) => Succeed(trailers);

    private async Task<TResponse> RunAsync(HttpClient httpClient, TRequest request)
    {
        HttpResponseMessage? response = null;
        try
        {
            var protocol = Method.Settings.Protocol;
            using var httpRequest = CreateRequest(httpClient, protocol.UnaryContent((IMessage)request));
            protocol.PrepareUnary(httpRequest);

            var token = CallToken;
            response = await httpClient.SendAsync(httpRequest, HttpCompletionOption.ResponseHeadersRead, token).ConfigureAwait(false);
            SetHeaders(protocol.UnaryHeaders(response));
            return (TResponse)await protocol.ReadUnaryAsync(response, Method, this, token).ConfigureAwait(false);
        }
        catch (Exception ex)
        {
            throw Fail(ex);
        }
        finally
        {
            response?.Dispose();
        }
    }
}

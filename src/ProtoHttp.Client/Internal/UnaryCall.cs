using Google.Protobuf;
using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>
/// One unary call: sends the request, turns the answer or the failure into the call's outcome, and keeps the
/// status, headers and trailers the generated client's <see cref="AsyncUnaryCall{TResponse}"/> asks for.
/// </summary>
internal sealed class UnaryCall<TRequest, TResponse> : ClientCall<TRequest, TResponse>
    where TRequest : class
    where TResponse : class
{
    private UnaryCall(ClientMethod<TRequest, TResponse> method, CallOptions options)
        : base(method, options)
    {
    }

    public static AsyncUnaryCall<TResponse> Start(HttpClient httpClient, ClientMethod<TRequest, TResponse> method, CallOptions options, TRequest request)
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

    private async Task<TResponse> RunAsync(HttpClient httpClient, TRequest request)
    {
        HttpResponseMessage? response = null;
        try
        {
            var protocol = Method.Settings.Protocol;
            using var httpRequest = CreateRequest(httpClient, new MessageContent((IMessage)request, protocol.Codec, protocol.ContentType));
            protocol.PrepareUnary(httpRequest);

            var token = CallToken;
            response = await httpClient.SendAsync(httpRequest, HttpCompletionOption.ResponseHeadersRead, token).ConfigureAwait(false);
            SetHeaders(protocol.UnaryMetadata(response, trailers: false));
            if (!response.IsSuccessStatusCode)
            {
                throw await protocol.ReadErrorAsync(response, token).ConfigureAwait(false);
            }

            var message = await ResponseReader.ReadMessageAsync(response, Method, token).ConfigureAwait(false);
            Succeed(protocol.UnaryMetadata(response, trailers: true));
            return message;
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

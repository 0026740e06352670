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
            var settings = Method.Settings;
            using var httpRequest = CreateRequest(httpClient, new MessageContent((IMessage)request, settings.Writer, settings.ContentType));
            if (!IsConnect)
            {
                // A Connect answer comes in the request's codec; ProtoHttp's is negotiated.
                httpRequest.Headers.TryAddWithoutValidation("Accept", settings.Accept);
            }

            var token = CallToken;
            response = await httpClient.SendAsync(httpRequest, HttpCompletionOption.ResponseHeadersRead, token).ConfigureAwait(false);

            // ProtoHttp servers send the service's trailers as headers (there are no HTTP trailers on HTTP/1.1),
            // so both views start from the response headers; real HTTP trailers join once the body has been read.
            // Connect servers send them as headers too, each named trailer- and the key.
            var connect = IsConnect;
            SetHeaders(connect ? HeaderMetadata.FromConnectResponse(response, trailers: false) : HeaderMetadata.FromResponse(response, withTrailers: false));
            if (!response.IsSuccessStatusCode)
            {
                throw await ErrorAnswer.ReadAsync(response, Method.Settings, token).ConfigureAwait(false);
            }

            var message = await ResponseReader.ReadMessageAsync(response, Method, token).ConfigureAwait(false);
            Succeed(connect ? HeaderMetadata.FromConnectResponse(response, trailers: true) : HeaderMetadata.FromResponse(response, withTrailers: true));
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

using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>Encodes request bodies and decodes responses the way any client would, with Google.Protobuf alone.</summary>
public static class Wire
{
    public static HttpContent Body(IMessage message, string contentType)
    {
        var mediaType = contentType.Split(';')[0].Trim();
        HttpContent content = IsProtobuf(mediaType)
            ? new ByteArrayContent(message.ToByteArray())
            : new StringContent(JsonFormatter.Default.Format(message), Encoding.UTF8);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        return content;
    }

    public static async Task<T> ReadAsync<T>(HttpResponseMessage response)
        where T : IMessage<T>, new()
    {
        var mediaType = response.Content.Headers.ContentType?.MediaType ?? throw new InvalidOperationException("The response has no Content-Type.");
        var parser = new MessageParser<T>(() => new T());
        return IsProtobuf(mediaType)
            ? parser.ParseFrom(await response.Content.ReadAsByteArrayAsync())
            : JsonParser.Default.Parse<T>(await response.Content.ReadAsStringAsync());
    }

    public static Task<ErrorResult> ReadErrorAsync(HttpResponseMessage response) => ReadAsync<ErrorResult>(response);

    public static HttpRequestMessage Post(string path, IMessage message, string contentType, string? accept = null)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = Body(message, contentType) };
        if (accept is not null)
        {
            request.Headers.TryAddWithoutValidation("Accept", accept);
        }

        return request;
    }

    public static bool IsProtobuf(string mediaType) =>
        mediaType is "application/x-protobuf" or "application/protobuf" or "application/vnd.google.protobuf" or "application/proto";
}

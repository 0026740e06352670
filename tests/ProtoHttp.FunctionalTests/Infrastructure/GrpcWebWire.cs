using System.Buffers.Binary;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;

namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>gRPC-Web by hand, for what a client library would hide: frames, the trailers frame, the text mode.</summary>
public static class GrpcWebWire
{
    /// <summary>One message frame around <paramref name="message"/>.</summary>
    public static byte[] Frame(IMessage message) => Frame(message.ToByteArray());

    /// <summary>One message frame around <paramref name="payload"/>, a message in any codec.</summary>
    public static byte[] Frame(byte[] payload)
    {
        var frame = new byte[5 + payload.Length];
        BinaryPrimitives.WriteInt32BigEndian(frame.AsSpan(1), payload.Length);
        payload.CopyTo(frame, 5);
        return frame;
    }

    /// <summary>A POST of <paramref name="body"/> as <paramref name="contentType"/>, over HTTP/2 (h2c) when <paramref name="http2"/>.</summary>
    public static HttpRequestMessage Post(string path, byte[] body, string contentType = "application/grpc-web+proto", string? timeout = null, bool http2 = false)
    {
        var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = new ByteArrayContent(body) };
        if (http2)
        {
            request.Version = HttpVersion.Version20;
            request.VersionPolicy = HttpVersionPolicy.RequestVersionExact;
        }

        request.Content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        if (timeout is not null)
        {
            request.Headers.Add("grpc-timeout", timeout);
        }

        return request;
    }

    /// <summary>A text body's bytes: padded base64 chunks back to back, each decoded on its own.</summary>
    public static byte[] DecodeText(string text) =>
        [.. System.Text.RegularExpressions.Regex.Matches(text, "[^=]+=*").SelectMany(chunk => Convert.FromBase64String(chunk.Value))];

    /// <summary>The frames of a binary body; the trailers frame's lines as a dictionary (names are lower-case).</summary>
    public static (List<byte[]> Messages, Dictionary<string, string> Trailers) Read(byte[] body)
    {
        var messages = new List<byte[]>();
        Dictionary<string, string>? trailers = null;
        for (var at = 0; at < body.Length;)
        {
            Assert.Null(trailers); // Nothing follows the trailers frame.
            var length = BinaryPrimitives.ReadInt32BigEndian(body.AsSpan(at + 1));
            var payload = body.AsSpan(at + 5, length).ToArray();
            if (body[at] == 0x80)
            {
                trailers = Encoding.ASCII.GetString(payload)
                    .Split("\r\n", StringSplitOptions.RemoveEmptyEntries)
                    .Select(line => line.Split(": ", 2))
                    .ToDictionary(pair => pair[0], pair => pair[1]);
            }
            else
            {
                Assert.Equal(0, body[at]);
                messages.Add(payload);
            }

            at += 5 + length;
        }

        Assert.NotNull(trailers); // The trailers frame is always there, last.
        return (messages, trailers);
    }
}

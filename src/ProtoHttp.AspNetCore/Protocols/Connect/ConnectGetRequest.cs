using System.Buffers;
using System.Buffers.Text;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Http;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Protocols.Connect;

/// <summary>
/// A Connect unary GET: <c>?connect=v1&amp;encoding=json|proto&amp;message=…[&amp;base64=1][&amp;compression=gzip]</c>,
/// the message percent-encoded (JSON) or base64url-encoded, padded or not.
/// </summary>
internal static class ConnectGetRequest
{
    /// <exception cref="CallRejectedException">A parameter is missing or not one Connect defines values for.</exception>
    public static (IMessage Message, MessageCodec Codec) Read(IQueryCollection query, MessageCodecs codecs, MessageDescriptor descriptor, long limit)
    {
        if (query.TryGetValue("connect", out var connect) && connect != "v1")
        {
            throw CallRejectedException.BadRequest($"The query parameter connect is '{connect}'; this server speaks v1.");
        }

        var encoding = query["encoding"].ToString();
        if (encoding.Length == 0)
        {
            throw CallRejectedException.BadRequest($"A Connect GET needs the query parameter encoding ({ConnectMediaTypes.EncodingNames(codecs)}).");
        }

        if (ConnectMediaTypes.Encoding(encoding, codecs) is not { } codec)
        {
            throw new CallRejectedException(StatusCodes.Status415UnsupportedMediaType, StatusCode.InvalidArgument,
                $"The encoding '{encoding}' is not a Connect codec this service reads; use {ConnectMediaTypes.EncodingNames(codecs)}.");
        }

        var reader = codec;

        var text = query["message"].ToString();
        var base64 = query["base64"].ToString() switch
        {
            "" or "0" => false,
            "1" => true,
            var other => throw CallRejectedException.BadRequest($"The query parameter base64 is '{other}'; it must be 1 or absent."),
        };
        var bytes = base64 ? DecodeBase64Url(text) : Encoding.UTF8.GetBytes(text);
        if (bytes.Length > limit)
        {
            throw CallRejectedException.TooLarge(limit);
        }

        if (!ConnectCompression.IsGzip(query["compression"].ToString()))
        {
            return (reader.Read(new ReadOnlySequence<byte>(bytes), descriptor), codec);
        }

        return (Pipeline.GzipPayloads.ReadMessage(reader, new ReadOnlySequence<byte>(bytes), descriptor, limit), codec);
    }

    private static byte[] DecodeBase64Url(string text)
    {
        // Connect sends base64url, with or without padding, as connect-go reads it.
        var normalized = text.TrimEnd('=');
        if (!Base64Url.IsValid(normalized, out var length))
        {
            throw CallRejectedException.BadRequest("The query parameter message is not valid base64url.");
        }

        var bytes = new byte[length];
        Base64Url.DecodeFromChars(normalized, bytes);
        return bytes;
    }
}

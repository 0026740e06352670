namespace ProtoHttp.AspNetCore.Protocols.GrpcWeb;

/// <summary>
/// What a gRPC-Web request's <c>Content-Type</c> says (docs/protocol.md, gRPC-Web): the codec of its messages, whether
/// the body is base64 text, and the type the answer goes out as, which names the same codec and text mode.
/// </summary>
/// <param name="Codec">Protobuf for <c>application/grpc-web</c> and <c>+proto</c>; JSON for <c>+json</c>.</param>
/// <param name="Text">Whether the body is base64 (<c>application/grpc-web-text</c>), as browsers without binary XHR send it.</param>
/// <param name="ContentType">The response's <c>Content-Type</c>: the request's own type without parameters, lower-case.</param>
/// <param name="Translated">
/// The request is gRPC-Web that grpc-dotnet's gRPC-Web middleware (<c>UseGrpcWeb</c> with <c>DefaultEnabled</c>) turned
/// into gRPC on its way to this endpoint: its type reads <c>application/grpc</c>, the middleware decodes and encodes the
/// base64, and it writes the trailers frame from the response's HTTP trailers, so the answer's status goes there.
/// </param>
internal sealed record GrpcWebMediaType(MessageCodec Codec, bool Text, string ContentType, bool Translated = false);

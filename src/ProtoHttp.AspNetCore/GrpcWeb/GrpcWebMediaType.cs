namespace ProtoHttp.AspNetCore.GrpcWeb;

/// <summary>
/// What a gRPC-Web request's <c>Content-Type</c> says (docs/protocol.md, gRPC-Web): the codec of its messages, whether
/// the body is base64 text, and the type the answer goes out as, which names the same codec and text mode.
/// </summary>
/// <param name="Codec">Protobuf for <c>application/grpc-web</c> and <c>+proto</c>; JSON for <c>+json</c>.</param>
/// <param name="Text">Whether the body is base64 (<c>application/grpc-web-text</c>), as browsers without binary XHR send it.</param>
/// <param name="ContentType">The response's <c>Content-Type</c>: the request's own type without parameters, lower-case.</param>
internal sealed record GrpcWebMediaType(MessageFormat Codec, bool Text, string ContentType);

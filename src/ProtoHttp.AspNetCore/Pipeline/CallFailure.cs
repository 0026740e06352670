using Grpc.Core;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// What <see cref="CallErrors"/> decided a failed call answers: the HTTP status and code, the text the client may see,
/// a header that says what would work (<c>Allow</c>, <c>Accept-Post</c>), the trailers an <see cref="RpcException"/>
/// carried, and whether no format the client accepts can carry the answer (then the protocol tells the error in a format
/// of its own choosing: ProtoHttp's own protocol in JSON, docs/protocol.md section 5).
/// </summary>
internal readonly record struct CallFailure(
    int HttpStatus,
    StatusCode Code,
    string Text,
    KeyValuePair<string, string>? Hint = null,
    Metadata? Trailers = null,
    bool NoAcceptedFormat = false);

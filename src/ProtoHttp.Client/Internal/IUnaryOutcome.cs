using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>Where a protocol part puts a unary call's success once it has read the answer: the trailers it found.</summary>
internal interface IUnaryOutcome
{
    /// <summary>The call succeeded, with <paramref name="trailers"/>.</summary>
    void Succeed(Metadata trailers);
}

using Grpc.Core;

namespace ProtoHttp.Client.Internal;

/// <summary>What a <see cref="RequestStreamWriter{TRequest}"/> needs of its call: the call's token and its outcome.</summary>
internal interface IRequestStreamOwner
{
    /// <summary>Fires when the call is cancelled, disposed or past its deadline.</summary>
    CancellationToken Token { get; }

    /// <summary>Throws the call's failure, or says the call is over, once it has ended.</summary>
    void ThrowIfEnded();

    /// <summary>The exception a failed write stands for: the call's own outcome when the server has already told it.</summary>
    Task<Exception> WriteFailedAsync(Exception exception);
}

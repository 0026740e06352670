namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>What the lifecycle needs of a call's request stream, whatever its message type.</summary>
internal interface IRequestStream
{
    /// <summary>What was wrong with the request stream, if anything was: the client's fault, whatever the service made of it.</summary>
    Internal.CallRejectedException? Fault { get; }

    /// <summary>Ends a read still in flight when the call is over.</summary>
    Task StopAsync();
}

using Grpc.Core;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// What only some calls have, kept apart so the common small unary call never allocates it (BENCHMARKS.md's 100 bytes
/// per call): the service's view of headers, trailers, status, peer credentials and user state, which most services
/// never touch; a deadline's timer, which only a call with a timeout has; the telemetry of a call something listens
/// to. Made by
/// <see cref="ProtoHttpServerCallContext"/> on the first use of any of them.
/// </summary>
internal sealed class OnDemandCallState
{
    public Metadata? RequestHeaders { get; set; }

    public Metadata? ResponseTrailers { get; set; }

    public AuthContext? AuthContext { get; set; }

    public Dictionary<object, object>? UserState { get; set; }

    public Status Status { get; set; }

    public WriteOptions? WriteOptions { get; set; }

    /// <summary>The call's deadline, when it has a timeout (the client's or the host's).</summary>
    public Invocation.CallDeadline? Deadline { get; set; }

    /// <summary>Whether the host's timeout had passed before the call could take it over (<see cref="Invocation.HostRequestTimeout"/>).</summary>
    public bool HostTimeoutExpired { get; set; }

    /// <summary>The call's activity and start time, when something listens (<see cref="Telemetry.CallTelemetry.Start"/>).</summary>
    public Telemetry.CallTelemetry.CallScope? Telemetry { get; set; }
}

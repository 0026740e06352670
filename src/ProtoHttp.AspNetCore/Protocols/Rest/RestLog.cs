using Microsoft.Extensions.Logging;

namespace ProtoHttp.AspNetCore.Protocols.Rest;

/// <summary>The REST routes' log lines, on the logger of the service whose rules they read.</summary>
internal static partial class RestLog
{
    /// <summary>
    /// A rule on a client-streaming or bidirectional method, said once at startup (docs/protocol.md section 14): a REST
    /// call carries one request message, so the rule maps no route. A warning, not a failure, as gRPC JSON transcoding
    /// warns ("Client and bidirectional streaming methods are not supported") and starts: a service moving from it
    /// starts here too.
    /// </summary>
    [LoggerMessage(300, LogLevel.Warning,
        "{Method}: its google.api.http rule {Verb} {Template} maps no REST route: the method is {Kind}, and a REST call carries one request message. The method keeps its other routes.",
        EventName = "RestRuleNotServed")]
    public static partial void RuleNotServed(ILogger logger, string method, string verb, string template, string kind);
}

using Grpc.Core;

namespace ProtoHttp.AspNetCore.Pipeline;

/// <summary>
/// The codes a protocol answers a malformed request envelope with. Connect's conformance suite wants its own
/// (connect_server_unexpected.yaml); elsewhere every envelope fault is the client's <c>InvalidArgument</c>.
/// </summary>
/// <param name="CountFault">No envelope where one was needed, or more than one.</param>
/// <param name="UnagreedCompressionFault">An envelope flagged compressed when no compression was agreed.</param>
internal sealed record EnvelopeRules(StatusCode CountFault, StatusCode UnagreedCompressionFault)
{
    public static EnvelopeRules Plain { get; } = new(StatusCode.InvalidArgument, StatusCode.InvalidArgument);
}

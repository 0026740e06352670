using Google.Protobuf;
using Grpc.Core;
using ProtoHttp.AspNetCore;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Services;

/// <summary>The test service: slow calls that report their cancellation, the call context echoed, chosen failures.</summary>
public sealed class ScriptedTestService(CallProbe probe) : TestService.TestServiceBase
{
    public override async Task<SlowReply> Slow(SlowRequest request, ServerCallContext context)
    {
        probe.MarkStarted();
        using var watch = CancellationWatch.Start(probe.MarkCancelled, context.CancellationToken);
        var token = request.IgnoreCancellation ? CancellationToken.None : context.CancellationToken;
        await Task.Delay(request.DelayMs, token);
        return new SlowReply { Completed = true };
    }

    public override async Task<ContextReply> Context(ContextRequest request, ServerCallContext context)
    {
        var headers = new Metadata();
        foreach (var (key, value) in request.ResponseHeaders)
        {
            headers.Add(key, value);
        }

        if (!request.BinaryHeader.IsEmpty)
        {
            headers.Add("echo-bin", request.BinaryHeader.ToByteArray());
        }

        await context.WriteResponseHeadersAsync(headers);
        foreach (var (key, value) in request.ResponseTrailers)
        {
            context.ResponseTrailers.Add(key, value);
        }

        var reply = new ContextReply
        {
            Peer = context.Peer,
            Method = context.Method,
            HasDeadline = context.Deadline != DateTime.MaxValue,
            HasHttpContext = context.GetProtoHttpContext() is not null,
            User = context.GetProtoHttpContext()?.User.Identity?.Name ?? "",
            PeerAuthenticated = context.AuthContext.IsPeerAuthenticated,
            PeerIdentityProperty = context.AuthContext.PeerIdentityPropertyName ?? "",
            PeerIdentity = { context.AuthContext.PeerIdentity.Select(p => p.Value) },
            HttpPath = context.GetHttpContext().Request.Path.Value ?? "",
        };
        foreach (var entry in context.RequestHeaders)
        {
            if (entry.IsBinary)
            {
                reply.BinaryRequestHeader = ByteString.CopyFrom(entry.ValueBytes);
            }
            else
            {
                reply.RequestHeaders[entry.Key] = entry.Value;
            }
        }

        return reply;
    }

    public override Task<Tree> Echo(Tree request, ServerCallContext context) => Task.FromResult(request);

    public override Task<Empty> ReturnNull(Empty request, ServerCallContext context) => Task.FromResult<Empty>(null!);

    public override Task<Empty> Fail(FailRequest request, ServerCallContext context)
    {
        if (request.Code.Length == 0)
        {
            throw new InvalidOperationException("Secret internal detail: " + request.Detail);
        }

        if (!StatusMapping.TryParseCodeName(request.Code, out var code))
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, $"Unknown code '{request.Code}'."));
        }

        var trailers = new Metadata { { "failure-reason", request.Detail } };
        if (!request.StatusDetails.IsEmpty)
        {
            trailers.Add("grpc-status-details-bin", request.StatusDetails.ToByteArray());
        }

        throw new RpcException(new Status(code, request.Detail), trailers);
    }
}

using Grpc.Core;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// The hardening suite's service. <c>Echo</c> answers its request, so a mutated request that still parses must also
/// be written back in every format; <c>SafeEcho</c> does the same for Connect GETs. <c>Leak</c> fails on purpose with secrets in the exception's text, type name and
/// stack, chosen by <see cref="Specimen.Code"/>; <c>LeakStream</c> the same after one message.
/// </summary>
public sealed class SpecimenService : Hardening.HardeningBase
{
    public const string Secret = "s3cr3t-password-42";

    public override Task<Specimen> Echo(Specimen request, ServerCallContext context) => Task.FromResult(request);

    public override Task<Specimen> SafeEcho(Specimen request, ServerCallContext context) => Task.FromResult(request);

    public override async Task<Specimen> Leak(Specimen request, ServerCallContext context) => await Throw(request);

    public override async Task LeakStream(Specimen request, IServerStreamWriter<Specimen> responseStream, ServerCallContext context)
    {
        // One message first, so the failure can only reach the client in the stream's last record and its trailers.
        await responseStream.WriteAsync(request);
        await Throw(request);
    }

    private static async Task<Specimen> Throw(Specimen request)
    {
        switch (request.Code)
        {
            case 0:
                throw new InvalidOperationException($"Connection string Password={Secret} refused.");
            case 1:
                throw new SecretTypeNameLeakException($"Inner detail {Secret}.", new IOException($"disk {Secret}"));
            case 2:
                await Task.Yield();
                throw new AggregateException($"Async {Secret}.", new UnauthorizedAccessException(Secret));
            case 3:
                // RpcException details are the service's own words to the client: they must get through.
                throw new RpcException(new Status(StatusCode.FailedPrecondition, "public detail for the client"), new Metadata { { "x-reason", "public" } });
            default:
                throw new RpcException(new Status(StatusCode.Internal, "internal but deliberate detail"), $"server-side message {Secret}");
        }
    }
}

using Google.Protobuf.WellKnownTypes;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>A message holding <c>google.protobuf.Any</c> goes out and comes back equal through the typed client, in every format.</summary>
public sealed class AnyTests(ServerFixture server) : IClassFixture<ServerFixture>
{
    [Theory]
    [EveryFormat]
    public async Task AParcelOfAnysComesBackEqual(string format)
    {
        using var http = new HttpClient();
        var options = new ProtoHttpClientOptions { Address = server.Address, Codec = format, Services = { ClientTestService.Descriptor } };
        var client = new ClientTestService.ClientTestServiceClient(new ProtoHttpCallInvoker(http, options));
        var parcel = new Parcel
        {
            Payload = Any.Pack(new SlowRequest { DelayMs = 1, Probe = "packed" }),
            Attachments = { Any.Pack(new Timestamp { Seconds = 5 }), Any.Pack(Any.Pack(new EchoReply { HttpPath = "/x" })) },
        };

        var echoed = await client.EchoParcelAsync(parcel);

        Assert.Equal(parcel, echoed);
    }
}

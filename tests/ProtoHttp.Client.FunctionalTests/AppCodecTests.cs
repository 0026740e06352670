using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Infrastructure;
using ProtoService;

namespace ProtoHttp.Client.FunctionalTests;

/// <summary>
/// An app's own codec, added to the server (<c>ProtoHttpOptions.Codecs</c>) and to the typed client
/// (<see cref="ProtoHttpClientOptions.Codecs"/>), chosen by its name (<see cref="ProtoHttpClientOptions.Codec"/>) in each
/// protocol the client speaks: the requests go out in its media types and the answers come back in them, and the
/// client's result is what protobuf gets.
/// </summary>
public sealed class AppCodecTests(AppCodecTests.Server server) : IClassFixture<AppCodecTests.Server>
{
    public static TheoryData<string, string> Protocols => new()
    {
        { ProtocolNames.ProtoHttp, Base64Codec.MediaType },
        { ProtocolNames.Connect, "application/" + Base64Codec.CodecName },
        { ProtocolNames.GrpcWeb, "application/grpc-web+" + Base64Codec.CodecName },
    };

    [Theory]
    [MemberData(nameof(Protocols))]
    public async Task AUnaryCallTravelsInTheAppsCodec(string protocol, string wireType)
    {
        var recorder = new RecordingHandler();
        using var http = new HttpClient(recorder);
        var client = new ProtoService.SearchService.SearchServiceClient(Invoker(http, protocol));
        var request = new SearchRequest { Query = "chai", ResultPerPage = 3 };

        var response = await client.SearchAsync(request);

        using var protobuf = new HttpClient();
        var expected = await new ProtoService.SearchService.SearchServiceClient(
            new ProtoHttpCallInvoker(protobuf, new ProtoHttpClientOptions { Address = server.Address, Protocol = protocol })).SearchAsync(request);
        Assert.NotEmpty(response.Result);
        Assert.Equal(expected, response);
        Assert.Equal(wireType, recorder.RequestTypes.Single());
        Assert.StartsWith(wireType, recorder.ResponseTypes.Single(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(ProtocolNames.ProtoHttp, "application/connect+" + Base64Codec.CodecName)]
    [InlineData(ProtocolNames.Connect, "application/connect+" + Base64Codec.CodecName)]
    [InlineData(ProtocolNames.GrpcWeb, "application/grpc-web+" + Base64Codec.CodecName)]
    public async Task AServerStreamTravelsInTheAppsCodecsEnvelopes(string protocol, string wireType)
    {
        var recorder = new RecordingHandler();
        using var http = new HttpClient(recorder);
        var client = new NorthwindStreams.NorthwindStreamsClient(Invoker(http, protocol));

        using var call = client.ReplayOrders(new ReplayRequest { Limit = 3 });
        var orders = new List<Order>();
        await foreach (var order in call.ResponseStream.ReadAllAsync())
        {
            orders.Add(order);
        }

        Assert.Equal(3, orders.Count);
        Assert.Equal(wireType, recorder.RequestTypes.Single());
        Assert.StartsWith(wireType, recorder.ResponseTypes.Single(), StringComparison.Ordinal);
    }

    [Fact]
    public void ANameNoCodecHasFailsWhenTheInvokerIsMadeNamingTheCodecs()
    {
        using var http = new HttpClient();
        var error = Assert.Throws<InvalidOperationException>(() =>
            new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address, Codec = Base64Codec.CodecName }));
        Assert.Contains($"ProtoHttpClientOptions.Codec is '{Base64Codec.CodecName}'", error.Message, StringComparison.Ordinal);
        Assert.Contains("proto, json", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AProtocolTheClientDoesNotSpeakFailsWhenTheInvokerIsMade()
    {
        using var http = new HttpClient();
        var error = Assert.Throws<InvalidOperationException>(() =>
            new ProtoHttpCallInvoker(http, new ProtoHttpClientOptions { Address = server.Address, Protocol = "carrier-pigeon" }));
        Assert.Equal("ProtoHttpClientOptions.Protocol is 'carrier-pigeon', which the ProtoHttp client does not speak; choose ProtoHttp, Connect, GrpcWeb (ProtocolNames).", error.Message);
    }

    private ProtoHttpCallInvoker Invoker(HttpClient http, string protocol) => new(http, new ProtoHttpClientOptions
    {
        Address = server.Address,
        Protocol = protocol,
        Codec = Base64Codec.CodecName,
        Codecs = { new Base64Codec() },
    });

    /// <summary>The sample server with the app's codec added.</summary>
    public sealed class Server : ServerFixture
    {
        protected override void Configure(WebApplicationBuilder builder) =>
            builder.Services.AddProtoHttp(o => o.Codecs.Add(new Base64Codec()));
    }

    /// <summary>An app's codec: a message's protobuf bytes as base64 text, envelopable by its name.</summary>
    private sealed class Base64Codec : MessageCodec
    {
        public const string CodecName = "b64";

        public const string MediaType = "application/x-protobuf-base64";

        public Base64Codec()
            : base(CodecName, MediaType)
        {
            IsText = true;
            CanBeEnveloped = true;
        }

        public override IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor) =>
            descriptor.Parser.ParseFrom(Convert.FromBase64String(Encoding.UTF8.GetString(body)));

        public override void Write(IMessage message, IBufferWriter<byte> output) =>
            output.Write(Encoding.UTF8.GetBytes(Convert.ToBase64String(message.ToByteArray())));
    }
}

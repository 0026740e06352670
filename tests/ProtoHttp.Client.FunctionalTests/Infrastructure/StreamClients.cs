using System.Net;
using Northwind;
using ProtoHttp.Client.FunctionalTests.Protos;

namespace ProtoHttp.Client.FunctionalTests.Infrastructure;

/// <summary>
/// The generated clients for one cell of the streaming matrix: ProtoHttp's paths or Connect's, protobuf or JSON
/// envelopes, HTTP/1.1 or h2c (HTTP/2 with prior knowledge) to the sample server.
/// </summary>
public sealed class StreamClients : IDisposable
{
    private readonly HttpClient _http;

    public StreamClients(ServerFixture server, string protocol, string format, bool http2, long? maxResponseSize = ProtoHttpClientOptions.DefaultMaxResponseSize)
    {
        _http = http2
            ? new HttpClient { DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact }
            : new HttpClient();
        Invoker = new ProtoHttpCallInvoker(_http, new ProtoHttpClientOptions
        {
            Address = http2 ? server.Http2Address : server.Address,
            Codec = format,
            Protocol = protocol,
            MaxResponseSize = maxResponseSize,
        });
    }

    public ProtoHttpCallInvoker Invoker { get; }

    public NorthwindStreams.NorthwindStreamsClient Streams => new(Invoker);

    public ClientTestService.ClientTestServiceClient Test => new(Invoker);

    /// <summary>Every protocol × envelope codec × transport.</summary>
    public static TheoryData<string, string, bool> Everywhere => new()
    {
        { ProtocolNames.ProtoHttp, CodecNames.Protobuf, false },
        { ProtocolNames.ProtoHttp, CodecNames.Json, false },
        { ProtocolNames.ProtoHttp, CodecNames.Protobuf, true },
        { ProtocolNames.ProtoHttp, CodecNames.Json, true },
        { ProtocolNames.Connect, CodecNames.Protobuf, false },
        { ProtocolNames.Connect, CodecNames.Json, false },
        { ProtocolNames.Connect, CodecNames.Protobuf, true },
        { ProtocolNames.Connect, CodecNames.Json, true },
    };

    /// <summary>Every protocol × envelope codec over h2c, for bidirectional calls.</summary>
    public static TheoryData<string, string> OverHttp2 => new()
    {
        { ProtocolNames.ProtoHttp, CodecNames.Protobuf },
        { ProtocolNames.ProtoHttp, CodecNames.Json },
        { ProtocolNames.Connect, CodecNames.Protobuf },
        { ProtocolNames.Connect, CodecNames.Json },
    };

    public void Dispose() => _http.Dispose();
}

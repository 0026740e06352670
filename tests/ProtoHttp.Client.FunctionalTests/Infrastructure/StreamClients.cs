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

    public StreamClients(ServerFixture server, ClientProtocol protocol, MessageFormat format, bool http2, long? maxResponseSize = ProtoHttpClientOptions.DefaultMaxResponseSize)
    {
        _http = http2
            ? new HttpClient { DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact }
            : new HttpClient();
        Invoker = new ProtoHttpCallInvoker(_http, new ProtoHttpClientOptions
        {
            Address = http2 ? server.Http2Address : server.Address,
            Format = format,
            Protocol = protocol,
            MaxResponseSize = maxResponseSize,
        });
    }

    public ProtoHttpCallInvoker Invoker { get; }

    public NorthwindStreams.NorthwindStreamsClient Streams => new(Invoker);

    public ClientTestService.ClientTestServiceClient Test => new(Invoker);

    /// <summary>Every protocol × envelope codec × transport.</summary>
    public static TheoryData<ClientProtocol, MessageFormat, bool> Everywhere => new()
    {
        { ClientProtocol.ProtoHttp, MessageFormat.Protobuf, false },
        { ClientProtocol.ProtoHttp, MessageFormat.Json, false },
        { ClientProtocol.ProtoHttp, MessageFormat.Protobuf, true },
        { ClientProtocol.ProtoHttp, MessageFormat.Json, true },
        { ClientProtocol.Connect, MessageFormat.Protobuf, false },
        { ClientProtocol.Connect, MessageFormat.Json, false },
        { ClientProtocol.Connect, MessageFormat.Protobuf, true },
        { ClientProtocol.Connect, MessageFormat.Json, true },
    };

    /// <summary>Every protocol × envelope codec over h2c, for bidirectional calls.</summary>
    public static TheoryData<ClientProtocol, MessageFormat> OverHttp2 => new()
    {
        { ClientProtocol.ProtoHttp, MessageFormat.Protobuf },
        { ClientProtocol.ProtoHttp, MessageFormat.Json },
        { ClientProtocol.Connect, MessageFormat.Protobuf },
        { ClientProtocol.Connect, MessageFormat.Json },
    };

    public void Dispose() => _http.Dispose();
}

using BenchmarkDotNet.Attributes;
using Google.Protobuf;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.SignalR;
using Microsoft.AspNetCore.SignalR.Protocol;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using Microsoft.Extensions.Options;
using ProtoHttp.Bench.Streams;
using ProtoHttp.Bench.Streams.Server;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// W4's server side in process: the real streaming endpoint <c>MapProtoService</c> maps writes <see cref="Messages"/>
/// five-string notifications, one flush each, into an in-memory pipe, as events, lines, envelopes and over the Connect
/// protocol. <see cref="Push_FramesOnly"/> is the floor any binary stream pays (a 5-byte header and the protobuf
/// message per flush, as Grpc.AspNetCore writes them, without any handler), and the two SignalR rows are what SignalR's
/// server writes per streamed item (its hub protocol's <c>WriteMessage</c> of a <see cref="StreamItemMessage"/> and a
/// flush, without its hub dispatch): where the load run cannot resolve a difference, these ratios can. Every call must
/// answer 200 with the expected number of bytes.
/// </summary>
[MemoryDiagnoser]
public class StreamingBenchmarks
{
    public const int Messages = 1000;

    private const string ConnectPushRoute = StreamWorkload.RpcPush;

    private WebApplication _app = null!;
    private InMemoryCall _call = null!;
    private RequestDelegate _push = null!;
    private RequestDelegate _connectPush = null!;
    private RequestDelegate _signalRJson = null!;
    private RequestDelegate _signalRMessagePack = null!;
    private byte[] _request = [];
    private byte[] _connectRequest = [];
    private readonly Dictionary<string, long> _lengths = [];
    private Dictionary<string, Func<Task<(int, long)>>> _calls = [];

    [GlobalSetup]
    public void Setup()
    {
        _app = InProcessApp.Build(
            services =>
            {
                services.AddSignalR();
                services.AddSingleton(sp => new Ticker(sp.GetRequiredService<IHubContext<PushHub>>(), TimeSpan.Zero));
                services.AddProtoHttp();
            },
            app => app.MapProtoService<PushBenchService>());
        _push = InProcessApp.Endpoint(_app, StreamWorkload.ProtoHttpPush);
        _connectPush = InProcessApp.ProtocolEndpoint(_app, ConnectPushRoute, ProtocolNames.Connect);
        _call = new InMemoryCall(_app.Services);

        var request = new PushRequest { Count = Messages };
        _request = request.ToByteArray();
        var message = request.ToByteArray();
        _connectRequest = new byte[5 + message.Length];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(_connectRequest.AsSpan(1), (uint)message.Length);
        message.CopyTo(_connectRequest, 5);

        var json = new JsonHubProtocol(Options.Create(new JsonHubProtocolOptions()));
        var messagePack = new MessagePackHubProtocol(Options.Create(new MessagePackHubProtocolOptions()));
        _signalRJson = context => SignalRItemsAsync(json, context);
        _signalRMessagePack = context => SignalRItemsAsync(messagePack, context);

        // The byte counts every later call must produce: events and lines carry each message's JSON, so they are
        // checked against the first call's length, which must at least hold the messages.
        var protobufSize = StreamWorkload.Notification.CalculateSize();
        _calls = Calls().ToDictionary(c => c.Name, c => c.Call);
        foreach (var (name, call) in _calls)
        {
            var (status, length) = call().GetAwaiter().GetResult();
            Check.Equal(200, status, name + "'s status");
            Check.That(length >= Messages * protobufSize, $"{name} wrote {length} bytes for {Messages} messages of {protobufSize} bytes");
            _lengths[name] = length;
        }
    }

    [GlobalCleanup]
    public void Cleanup() => ((IDisposable)_app).Dispose();

    [Benchmark(Baseline = true)]
    public Task Push_FramesOnly() => Run(nameof(Push_FramesOnly));

    [Benchmark]
    public Task Push_Envelopes() => Run(nameof(Push_Envelopes));

    [Benchmark]
    public Task Push_Connect() => Run(nameof(Push_Connect));

    [Benchmark]
    public Task Push_Events() => Run(nameof(Push_Events));

    [Benchmark]
    public Task Push_Lines() => Run(nameof(Push_Lines));

    [Benchmark]
    public Task SignalR_Json_ItemsOnly() => Run(nameof(SignalR_Json_ItemsOnly));

    [Benchmark]
    public Task SignalR_MessagePack_ItemsOnly() => Run(nameof(SignalR_MessagePack_ItemsOnly));

    private IEnumerable<(string Name, Func<Task<(int, long)>> Call)> Calls()
    {
        yield return (nameof(Push_FramesOnly), () => _call.SendAsync(FramesOnlyAsync, "POST", StreamWorkload.ProtoHttpPush, "application/x-protobuf", _request));
        yield return (nameof(Push_Envelopes), () => _call.SendAsync(_push, "POST", StreamWorkload.ProtoHttpPush, "application/x-protobuf", _request, accept: "application/connect+proto"));
        yield return (nameof(Push_Connect), () => _call.SendAsync(_connectPush, "POST", ConnectPushRoute, "application/connect+proto", _connectRequest));
        yield return (nameof(Push_Events), () => _call.SendAsync(_push, "POST", StreamWorkload.ProtoHttpPush, "application/x-protobuf", _request, accept: "text/event-stream"));
        yield return (nameof(Push_Lines), () => _call.SendAsync(_push, "POST", StreamWorkload.ProtoHttpPush, "application/x-protobuf", _request, accept: "application/x-ndjson"));
        yield return (nameof(SignalR_Json_ItemsOnly), () => _call.SendAsync(_signalRJson, "POST", StreamWorkload.HubPath, null, []));
        yield return (nameof(SignalR_MessagePack_ItemsOnly), () => _call.SendAsync(_signalRMessagePack, "POST", StreamWorkload.HubPath, null, []));
    }

    private async Task Run(string name)
    {
        var (status, length) = await _calls[name]();
        Check.Equal(200, status, name + "'s status");
        Check.Equal(_lengths[name], length, name + "'s bytes");
    }

    private static async Task FramesOnlyAsync(HttpContext context)
    {
        var output = context.Response.BodyWriter;
        var message = StreamWorkload.Notification;
        for (var i = 0; i < Messages; i++)
        {
            var size = message.CalculateSize();
            var span = output.GetSpan(5 + size);
            span[0] = 0;
            System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(span[1..], (uint)size);
            message.WriteTo(span.Slice(5, size));
            output.Advance(5 + size);
            await output.FlushAsync();
        }
    }

    private static async Task SignalRItemsAsync(IHubProtocol protocol, HttpContext context)
    {
        var output = context.Response.BodyWriter;
        var item = StreamWorkload.NotificationDto;
        for (var i = 0; i < Messages; i++)
        {
            protocol.WriteMessage(new StreamItemMessage("1", item), output);
            await output.FlushAsync();
        }
    }
}

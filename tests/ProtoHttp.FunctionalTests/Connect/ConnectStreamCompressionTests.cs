using System.Net;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using ProtoHttp.AspNetCore;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using static ProtoHttp.FunctionalTests.Infrastructure.ConnectStreamCalls;

namespace ProtoHttp.FunctionalTests.Connect;

/// <summary>
/// Compressed response envelopes on Connect streams (connectrpc/conformance runs its basic and errors suites with gzip
/// too; the Connect spec's Streaming-Response): a client that lists gzip in Connect-Accept-Encoding, or sends none and
/// gzips its own request, gets <c>Connect-Content-Encoding: gzip</c> and every envelope of at least
/// <c>ConnectCompressionMinSize</c> (1 KiB) bytes gzipped with flag 0x01, the end-stream one too (0x03); smaller ones
/// go out as they are, flag clear. The envelopes are read raw here and gunzipped by .NET's own GZipStream.
/// </summary>
public sealed class ConnectStreamCompressionTests(SampleServerFixture fixture) : IClassFixture<SampleServerFixture>, IDisposable
{
    private readonly SampleServer _server = fixture.Server;
    private readonly ConnectStreamCalls _calls = new(fixture.Server);

    public static TheoryData<string, bool> CodecsAndProtocols => ConnectStreamingTests.CodecsAndProtocols;

    public void Dispose() => _calls.Dispose();

    [Theory]
    [MemberData(nameof(CodecsAndProtocols))]
    public async Task ServerStreamMessagesFromTheMinimumOnAreGzipped(string codec, bool http2)
    {
        var request = Post(Count, StreamWire.Envelope(new CountRequest { Count = 3, PaddingBytes = 2000 }, codec), codec);
        request.Headers.Add("Connect-Accept-Encoding", "gzip");

        using var response = await SendAsync(http2, request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("gzip", Assert.Single(response.Headers.GetValues("Connect-Content-Encoding")));
        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), gzipped: true);
        Assert.Equal([0x01, 0x01, 0x01, 0x02], envelopes.Select(e => e.Flags));
        Assert.Equal([0, 1, 2], envelopes.SkipLast(1).Select(e => Parse(e.Payload, codec).Sequence));
        Assert.All(envelopes.SkipLast(1), e => Assert.Equal(2000, Parse(e.Payload, codec).Padding.Length));
        Assert.Equal("{}", System.Text.Encoding.UTF8.GetString(envelopes[^1].Payload));
    }

    [Theory]
    [InlineData(StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson)]
    public async Task MessagesUnderTheMinimumGoOutAsTheyAre(string codec)
    {
        var request = Post(Count, StreamWire.Envelope(new CountRequest { Count = 2, PaddingBytes = 10 }, codec), codec);
        request.Headers.Add("Connect-Accept-Encoding", "gzip");

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal("gzip", Assert.Single(response.Headers.GetValues("Connect-Content-Encoding")));
        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), gzipped: true);
        Assert.Equal([0x00, 0x00, 0x02], envelopes.Select(e => e.Flags));
    }

    [Theory] // One stream, both sizes: each envelope is judged by its own size.
    [InlineData(StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson)]
    public async Task BidirectionalEchoGzipsEachLargeMessageAlone(string codec)
    {
        int[] paddings = [10, 3000, 0, 5000];
        var body = paddings.Select((p, i) => StreamWire.Envelope(new Tick { Sequence = i, Padding = ByteString.CopyFrom(new byte[p]) }, codec)).SelectMany(e => e).ToArray();
        var request = Post(Echo, body, codec);
        request.Headers.Add("Connect-Accept-Encoding", "br, gzip");

        using var response = await SendAsync(http2: true, request);

        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), gzipped: true);
        Assert.Equal([0x00, 0x01, 0x00, 0x01, 0x02], envelopes.Select(e => e.Flags));
        Assert.Equal(paddings, envelopes.SkipLast(1).Select(e => Parse(e.Payload, codec).Padding.Length));
    }

    [Theory] // compression.yaml, bidi-stream with gzip: gzipped requests in, and with no Connect-Accept-Encoding, gzip out too.
    [InlineData(StreamWire.ConnectProto)]
    [InlineData(StreamWire.ConnectJson)]
    public async Task BidirectionalGzipBothWays(string codec)
    {
        var body = Enumerable.Range(0, 3).SelectMany(i =>
            StreamWire.Envelope(ConnectWire.Gzip(StreamWire.Envelope(new Tick { Sequence = i, Padding = ByteString.CopyFrom(new byte[2000]) }, codec)[5..]), flags: 0x01)).ToArray();
        var request = Post(Echo, body, codec);
        request.Headers.Add("Connect-Content-Encoding", "gzip");

        using var response = await SendAsync(http2: true, request);

        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), StreamWire.Gzipped(response));
        Assert.Equal([0x01, 0x01, 0x01, 0x02], envelopes.Select(e => e.Flags));
        Assert.Equal([0, 1, 2], envelopes.SkipLast(1).Select(e => Parse(e.Payload, codec).Sequence));
    }

    [Fact] // An end-stream envelope of at least the minimum (large trailers) is gzipped too: flags 0x03.
    public async Task ALargeEndStreamEnvelopeIsGzipped()
    {
        var trailer = new string('t', 3000);
        var request = Post(Count, StreamWire.Envelope(new CountRequest { Count = 1, ResponseTrailers = { ["x-big"] = trailer } }, StreamWire.ConnectProto), StreamWire.ConnectProto);
        request.Headers.Add("Connect-Accept-Encoding", "gzip");

        using var response = await _server.Client.SendAsync(request);

        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), gzipped: true);
        Assert.Equal([0x00, 0x03], envelopes.Select(e => e.Flags));
        using var end = JsonDocument.Parse(envelopes[1].Payload);
        Assert.Equal(trailer, end.RootElement.GetProperty("metadata").GetProperty("x-big")[0].GetString());
    }

    [Fact] // Client streaming: the one response message, gzipped when large enough; and StreamWire reads it as a client would.
    public async Task AClientStreamsLargeAnswerIsGzipped()
    {
        var body = Enumerable.Range(0, 400).SelectMany(i => StreamWire.Envelope(new Tick { Sequence = 100_000 + i }, StreamWire.ConnectProto)).ToArray();
        var request = Post(Sum, body, StreamWire.ConnectProto);
        request.Headers.Add("Connect-Accept-Encoding", "gzip");

        using var response = await _server.Client.SendAsync(request);

        var bytes = await response.Content.ReadAsByteArrayAsync();
        Assert.Equal([0x01, 0x02], StreamWire.Envelopes(bytes, gzipped: true).Select(e => e.Flags));
        var (summaries, end) = await StreamWire.ReadAllAsync<Summary>(response);
        Assert.Equal(400, Assert.Single(summaries).Sequences.Count);
        Assert.Equal("OK", end.Code);
    }

    [Theory] // The spec: without Connect-Accept-Encoding, the client accepts what it sent; gzip with q=0 or br alone is not accepted.
    [InlineData(null, "gzip", true)]
    [InlineData(null, null, false)]
    [InlineData(null, "identity", false)]
    [InlineData("identity", "gzip", false)]
    [InlineData("br", null, false)]
    [InlineData("gzip;q=0", null, false)]
    [InlineData("GZIP", null, true)]
    public async Task WhatTheClientAcceptsDecides(string? acceptEncoding, string? contentEncoding, bool gzipped)
    {
        var payload = new CountRequest { Count = 1, PaddingBytes = 2000 }.ToByteArray();
        var envelope = contentEncoding == "gzip" ? StreamWire.Envelope(ConnectWire.Gzip(payload), flags: 0x01) : StreamWire.Envelope(payload);
        var request = Post(Count, envelope, StreamWire.ConnectProto);
        if (acceptEncoding is not null)
        {
            request.Headers.Add("Connect-Accept-Encoding", acceptEncoding);
        }

        if (contentEncoding is not null)
        {
            request.Headers.Add("Connect-Content-Encoding", contentEncoding);
        }

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(gzipped, StreamWire.Gzipped(response));
        Assert.False(response.Content.Headers.Contains("Content-Encoding"), "Connect streams compress envelopes, never the body.");
        Assert.Equal("gzip", Assert.Single(response.Headers.GetValues("Connect-Accept-Encoding")));
        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), gzipped);
        Assert.Equal([gzipped ? (byte)0x01 : (byte)0x00, 0x02], envelopes.Select(e => e.Flags));
        Assert.Equal(2000, Tick.Parser.ParseFrom(envelopes[0].Payload).Padding.Length);
    }

    [Fact] // The minimum is the option's: with ConnectCompressionMinSize = 0 every envelope, even "{}", is gzipped.
    public async Task TheMinimumIsConnectCompressionMinSize()
    {
        await using var server = await SampleServer.StartAsync(configure: builder =>
            builder.Services.AddProtoHttp().AddServiceOptions<Services.StreamingTestService>(o => o.ConnectCompressionMinSize = 0));
        var request = Post(Count, StreamWire.Envelope(new CountRequest { Count = 1 }, StreamWire.ConnectJson), StreamWire.ConnectJson);
        request.Headers.Add("Connect-Accept-Encoding", "gzip");

        using var response = await server.Client.SendAsync(request);

        var envelopes = StreamWire.Envelopes(await response.Content.ReadAsByteArrayAsync(), gzipped: true);
        Assert.Equal([0x01, 0x03], envelopes.Select(e => e.Flags));
        Assert.Equal("{}", System.Text.Encoding.UTF8.GetString(envelopes[1].Payload));
    }

    private static Tick Parse(byte[] payload, string codec) =>
        codec == StreamWire.ConnectJson ? JsonParser.Default.Parse<Tick>(System.Text.Encoding.UTF8.GetString(payload)) : Tick.Parser.ParseFrom(payload);

    private Task<HttpResponseMessage> SendAsync(bool http2, HttpRequestMessage request) => _calls.SendAsync(request, http2);
}

using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;
using static ProtoHttp.FunctionalTests.Infrastructure.ConnectStreamCalls;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed Connect streaming requests from one seeded <see cref="Random"/>, at the Connect paths of the streaming
/// test service's server-streaming, client-streaming and bidirectional methods: the envelope faults of
/// <see cref="StreamMutator"/>, and Connect's own: compressed flags with no or an unknown <c>Connect-Content-Encoding</c>,
/// gzip that is broken or a bomb inside an envelope, and bad <c>Connect-Timeout-Ms</c>, <c>Connect-Protocol-Version</c>
/// and <c>Connect-Accept-Encoding</c> headers. A Count request is never mutated inside (its fields can ask the service
/// to wait or fail on purpose); its envelopes are.
/// </summary>
public static class ConnectStreamMutator
{
    // 8 MiB of zeros in a few KiB: twice the per-message limit once inflated.
    private static readonly Lazy<byte[]> Bomb = new(() => ConnectWire.Gzip(new byte[8 * 1024 * 1024]));

    // Larger than the in-place body limit (256 KiB), so read by the large-envelope path: random bytes gzipped (they do
    // not shrink), and a valid tick.
    private static readonly Lazy<byte[]> LargeGzip = new(() => ConnectWire.Gzip(RandomBytes(300 * 1024)));
    private static readonly Lazy<byte[]> LargeTick = new(() => new Tick { Sequence = 7, Padding = ByteString.CopyFrom(RandomBytes(300 * 1024)) }.ToByteArray());

    public static IEnumerable<ConnectStreamCase> Cases(Random random, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var path = random.Pick([Count, Sum, Echo]);
            var codec = random.Next(2) == 0 ? StreamWire.ConnectProto : StreamWire.ConnectJson;
            // Bidirectional calls need HTTP/2; some go over HTTP/1.1 anyway, to be refused with 505.
            var http2 = path == Echo ? random.Next(8) > 0 : random.Next(4) == 0;
            var headers = new List<(string, string)>();
            var mutations = new List<string>();
            IMessage[] messages = path == Count
                ? [new CountRequest { Count = random.Next(4), PaddingBytes = random.Next(3) == 0 ? 1500 : 0 }]
                : [.. Enumerable.Range(0, random.Next(5)).Select(n => StreamMutator.Tick(random, n))];

            var (encoding, compress) = RequestCompression(random, mutations);
            if (encoding is not null)
            {
                headers.Add(("Connect-Content-Encoding", encoding));
            }

            var body = messages.SelectMany(m => compress && random.Next(4) > 0
                ? StreamWire.Envelope(ConnectWire.Gzip(Payload(m, codec)), flags: 0x01)
                : StreamWire.Envelope(Payload(m, codec))).ToArray();
            body = MutateBody(random, body, path, mutations);
            AddHeaders(random, headers, mutations);
            yield return new ConnectStreamCase(path, codec, http2, headers, body, string.Join(", ", mutations));
        }
    }

    private static byte[] RandomBytes(int count)
    {
        var bytes = new byte[count];
        new Random(count).NextBytes(bytes);
        return bytes;
    }

    private static byte[] Payload(IMessage message, string codec) => StreamWire.Envelope(message, codec)[5..];

    /// <summary>The Connect-Content-Encoding sent, and whether envelopes are gzipped (and flagged so) whatever it says.</summary>
    private static (string? Encoding, bool Compress) RequestCompression(Random random, List<string> mutations)
    {
        switch (random.Next(8))
        {
            case 0 or 1:
                mutations.Add("gzip");
                return ("gzip", true);
            case 2:
                mutations.Add("compressed flags, no Connect-Content-Encoding");
                return (null, true);
            case 3:
                mutations.Add("compressed flags, Connect-Content-Encoding identity");
                return ("identity", true);
            case 4:
                var unknown = random.Pick(["br", "zstd", "deflate", "GZIP2", "", "gzip, br", "*"]);
                mutations.Add($"unknown Connect-Content-Encoding '{unknown}'");
                return (unknown, random.Next(2) == 0);
            default:
                return (null, false);
        }
    }

    private static byte[] MutateBody(Random random, byte[] body, string path, List<string> mutations)
    {
        switch (random.Next(11))
        {
            case 0:
                mutations.Add("gzip bomb in an envelope");
                return [.. body, .. StreamWire.Envelope(Bomb.Value, flags: 0x01)];
            case 1:
                var gzip = ConnectWire.Gzip(new Tick { Sequence = 9, Text = "x" }.ToByteArray());
                mutations.Add("truncated gzip in an envelope");
                return [.. body, .. StreamWire.Envelope(gzip[..(gzip.Length / 2)], flags: 0x01)];
            case 2:
                mutations.Add("an end-stream envelope in the request");
                return [.. body, .. StreamWire.Envelope("{}"u8.ToArray(), flags: (byte)random.Pick([0x02, 0x03]))];
            case 3 when path != Count:
                var gzipped = random.Next(2) == 0;
                mutations.Add(gzipped ? "300 KiB of gzipped random bytes in an envelope" : "a 300 KiB tick");
                return [.. body, .. gzipped ? StreamWire.Envelope(LargeGzip.Value, flags: 0x01) : StreamWire.Envelope(LargeTick.Value)];
            case 4 or 5 or 6 when body.Length > 0:
                var (mutated, mutation) = StreamMutator.MutateEnvelopes(random, body);
                if (mutation == "byte mutation" && path == Count)
                {
                    return body; // Count's fields are left whole; see the class comment.
                }

                mutations.Add(mutation);
                return mutated;
            default:
                return body;
        }
    }

    private static void AddHeaders(Random random, List<(string, string)> headers, List<string> mutations)
    {
        if (random.Next(5) == 0)
        {
            var timeout = random.Pick(["-1", "abc", "12345678901", "", " 5", "1.5", "0x10", "1e3", "5000, 5000", "0"]);
            headers.Add(("Connect-Timeout-Ms", timeout));
            mutations.Add($"Connect-Timeout-Ms '{timeout}'");
        }
        else
        {
            // A deadline on every other call: nothing waits longer than that, whatever a mutation made of the request.
            headers.Add(("Connect-Timeout-Ms", "10000"));
        }

        if (random.Next(5) == 0)
        {
            var version = random.Pick(["2", "0", "", "v1", "1, 1", "1.0"]);
            headers.Add(("Connect-Protocol-Version", version));
            mutations.Add($"Connect-Protocol-Version '{version}'");
        }
        else if (random.Next(2) == 0)
        {
            headers.Add(("Connect-Protocol-Version", "1"));
        }

        if (random.Next(2) == 0)
        {
            var accept = random.Pick(["gzip", "br", "gzip;q=0", "identity", "br, gzip", ",,,", "gzip;q=abc", "*"]);
            headers.Add(("Connect-Accept-Encoding", accept));
            mutations.Add($"Connect-Accept-Encoding '{accept}'");
        }
    }
}

/// <summary>One Connect streaming request: its path, codec, HTTP version, headers and body, and how it was made.</summary>
public sealed record ConnectStreamCase(string Path, string Codec, bool Http2, List<(string Name, string Value)> Headers, byte[] Body, string Mutation);

using System.Buffers.Binary;
using System.Text;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed gRPC-Web requests from one seeded <see cref="Random"/> (docs/protocol.md section 12), at the test service's
/// unary <c>Echo</c>, the streaming service's server-streaming <c>Count</c> and its client-streaming <c>Sum</c> (which
/// gRPC-Web cannot call): frames with other flags (the trailers flag, the compressed flag), lengths past the body, past
/// the limit or near 4 GiB, truncated headers and payloads, trailing bytes and second frames, empty bodies, broken
/// payloads; text bodies split into padded chunks, wrapped in lines, unpadded, or holding what base64 does not;
/// bad and instant <c>grpc-timeout</c>s, <c>grpc-encoding</c> and <c>grpc-accept-encoding</c>, types in other cases,
/// with parameters, or with codecs the server lacks. Each case says what the answer must be, as the rules decide it;
/// an Echo payload that was broken is judged by Google.Protobuf's own reading of it.
/// </summary>
public static class GrpcWebMutator
{
    public const string Echo = "/protohttp.tests.TestService/Echo";

    /// <summary>The test service's limit in SampleServer; the streaming service has the default 4 MiB.</summary>
    public const int EchoLimit = 64 * 1024;

    public const int CountLimit = 4 * 1024 * 1024;

    private const string Json = "application/grpc-web+json";

    private static readonly string[] Types =
    [
        "application/grpc-web", "application/grpc-web+proto", Json, "application/grpc-web-text", "application/grpc-web-text+proto",
    ];

    // gRPC-Web types with a codec the server lacks (a 415 by HTTP status), and one that is not gRPC-Web at all.
    private static readonly string[] Unreadable =
    [
        "application/grpc-web+xml", "application/grpc-web-text+json", "application/grpc-web+thrift", "application/grpc-webx",
    ];

    private static readonly string[] BadTimeouts = ["-1", "abc", "1.5S", "123456789S", "10", "S", "10s", "10 S", "10SS", "1h", "+5S", "0x5S"];

    public static IEnumerable<GrpcWebCase> Cases(Random random, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var path = random.Next(12) switch { < 7 => Echo, < 11 => ConnectStreamCalls.Count, _ => ConnectStreamCalls.Sum };
            var type = random.Pick(Types);
            var mutations = new List<string>();
            var headers = new List<(string Name, string Value)>();
            var http2 = random.Next(4) == 0;

            var (frame, expected) = path switch
            {
                Echo => EchoFrame(random, type == Json, mutations),
                ConnectStreamCalls.Count => CountFrame(random, type == Json),
                _ => (GrpcWebWire.Frame(StreamMutator.Tick(random, 0).ToByteArray()), GrpcWebExpectation.Refused),
            };
            var limit = path == Echo ? EchoLimit : CountLimit;
            (var body, var frameFault) = MutateFrame(random, frame, limit, mutations);
            expected = frameFault ?? expected;

            var text = type.Contains("-text", StringComparison.Ordinal);
            if (text)
            {
                (body, var textFault) = Text(random, body, mutations);
                expected = textFault ?? expected;
            }

            // A body over the limit is refused as it is read, before its base64 or its frame is looked at. The limit is
            // the message's; the body may hold its frame header besides, and base64 a third more, with room for padding.
            if (body.Length > (text ? ((limit + 5 + 2) / 3 * 4) + 64 : limit + 5))
            {
                expected = GrpcWebExpectation.Status(8);
            }

            var contentType = ContentType(random, type, mutations);
            if (random.Next(16) == 0)
            {
                contentType = random.Pick(Unreadable);
                mutations.Add($"type {contentType}");
                expected = GrpcWebExpectation.Refused;
            }

            expected = AddHeaders(random, headers, expected, mutations);
            if (path == ConnectStreamCalls.Sum)
            {
                // No gRPC-Web endpoint there: Connect's 415, whatever the body.
                expected = GrpcWebExpectation.Refused;
            }

            yield return new GrpcWebCase(path, contentType, type, http2, headers, body, mutations.Count == 0 ? "valid" : string.Join(", ", mutations), expected);
        }
    }

    public static byte[] Payload(IMessage message, bool json) =>
        json ? Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(message)) : message.ToByteArray();

    private static (byte[] Frame, GrpcWebExpectation Expected) EchoFrame(Random random, bool json, List<string> mutations)
    {
        var tree = new Tree
        {
            Name = random.Next(3) == 0 ? "" : random.Pick(["a", "tree", "Ünicode", "x y"]),
            Child = random.Next(2) == 0 ? new Tree { Name = "child", Shade = Shade.Dark } : null,
            Data = ByteString.CopyFrom(new byte[random.Next(3) == 0 ? random.Next(64) : 0]),
            Shade = random.Next(3) == 0 ? Shade.Light : Shade.Unspecified,
        };
        if (random.Next(3) == 0)
        {
            tree.Result.Add(new Leaf { Url = "https://example.com/" + random.Next(100) });
        }

        switch (random.Next(10))
        {
            case 0:
                // A message well over the limit, whole and well-formed: in every mode its body is over the body's limit too.
                mutations.Add("a message over the limit");
                tree.Data = ByteString.CopyFrom(new byte[2 * EchoLimit]);
                return (GrpcWebWire.Frame(Payload(tree, json)), GrpcWebExpectation.Status(8));
            case 1 or 2:
                var (payload, mutation) = Mutations.MutateBytes(random, Payload(tree, json), json ? "{}[]:,\"\\ 0eE-."u8 : "\0\u0001\u0002\u0012\u001a\u0022\u00ff"u8);
                mutations.Add("payload " + mutation);
                return (GrpcWebWire.Frame(payload), GrpcWebExpectation.ReadBy(payload, json));
            default:
                return (GrpcWebWire.Frame(Payload(tree, json)), GrpcWebExpectation.Ok(tree));
        }
    }

    // Count's fields are left whole: some ask the service to wait or fail on purpose. Its frame is mutated.
    private static (byte[] Frame, GrpcWebExpectation Expected) CountFrame(Random random, bool json)
    {
        var request = new CountRequest { Count = random.Next(4), PaddingBytes = random.Next(3) == 0 ? 1500 : 0 };
        var ticks = Enumerable.Range(0, request.Count)
            .Select(n => (IMessage)new Tick { Sequence = n, Padding = ByteString.CopyFrom(new byte[request.PaddingBytes]) })
            .ToArray();
        return (GrpcWebWire.Frame(Payload(request, json)), new GrpcWebExpectation(200, [0], ticks));
    }

    /// <returns>The body, and the status it must end with when the mutation decides it.</returns>
    private static (byte[] Body, GrpcWebExpectation? Fault) MutateFrame(Random random, byte[] frame, int limit, List<string> mutations)
    {
        var body = frame.ToArray();
        // The length is checked against the limit right after the flags: a message over it is refused so, cut or not.
        var overLimit = BinaryPrimitives.ReadUInt32BigEndian(frame.AsSpan(1)) > limit;
        GrpcWebExpectation Fault(int code) => GrpcWebExpectation.Status(overLimit ? 8 : code);
        switch (random.Next(16))
        {
            case 0:
                body[0] = 0x80;
                mutations.Add("the trailers flag 0x80 from the client");
                return (body, GrpcWebExpectation.Status(3));
            case 1:
                body[0] = 0x01;
                mutations.Add("the compressed flag");
                return (body, GrpcWebExpectation.Status(12));
            case 2:
                body[0] = (byte)random.Pick([0x02, 0x03, 0x40, 0x7f, 0x81, 0xff]);
                mutations.Add($"flags 0x{body[0]:x2}");
                return (body, GrpcWebExpectation.Status(3));
            case 3:
                BinaryPrimitives.WriteUInt32BigEndian(body.AsSpan(1), (uint)(body.Length - 5 + random.Next(1, 1000)));
                mutations.Add("length past the body");
                return (body, Fault(3));
            case 4:
                var huge = random.Pick([(uint)limit + 1, 0x7fffffffu, 0x80000000u, uint.MaxValue]);
                BinaryPrimitives.WriteUInt32BigEndian(body.AsSpan(1), huge);
                mutations.Add($"length {huge}, past the limit");
                return (body, GrpcWebExpectation.Status(8));
            case 5:
                mutations.Add("truncated header");
                return (body[..random.Next(1, 5)], GrpcWebExpectation.Status(3));
            case 6 when body.Length > 5:
                mutations.Add("truncated payload");
                return (body[..random.Next(5, body.Length)], Fault(3));
            case 7:
                mutations.Add("trailing bytes");
                return ([.. body, .. Enumerable.Range(0, 1 + random.Next(8)).Select(_ => (byte)random.Next(256))], Fault(12));
            case 8:
                var second = random.Next(2) == 0 ? frame : StreamWire.Envelope("grpc-status: 0\r\n"u8.ToArray(), flags: 0x80);
                mutations.Add(second[0] == 0x80 ? "a trailers frame after" : "a second message frame");
                return ([.. body, .. second], Fault(12));
            case 9:
                mutations.Add("empty body");
                return ([], GrpcWebExpectation.Status(12));
            default:
                return (body, null);
        }
    }

    /// <summary>The frame bytes as a text body: padded base64, in chunks, in lines, unpadded, or broken.</summary>
    private static (byte[] Body, GrpcWebExpectation? Fault) Text(Random random, byte[] bytes, List<string> mutations)
    {
        var text = Convert.ToBase64String(bytes);
        switch (random.Next(8))
        {
            case 0 when bytes.Length > 2:
                var cuts = Enumerable.Range(0, 1 + random.Next(3)).Select(_ => random.Next(1, bytes.Length)).Distinct().Order().ToList();
                var starts = (int[])[0, .. cuts];
                var ends = (int[])[.. cuts, bytes.Length];
                mutations.Add($"{starts.Length} padded base64 chunks");
                return (Encoding.ASCII.GetBytes(string.Concat(starts.Zip(ends, (s, e) => Convert.ToBase64String(bytes, s, e - s)))), null);
            case 1:
                mutations.Add("base64 in lines of 76");
                return (Encoding.ASCII.GetBytes(Convert.ToBase64String(bytes, Base64FormattingOptions.InsertLineBreaks) + "\n"), null);
            case 2 when text.EndsWith('='):
                mutations.Add("unpadded base64");
                return (Encoding.ASCII.GetBytes(text.TrimEnd('=')), null);
            case 3 when text.Length > 0:
                var broken = new StringBuilder(text).Insert(random.Next(text.Length + 1), random.Pick(["*", "!", "-", "_", ".", "\0", "é", "%3D"])).ToString();
                mutations.Add("a character base64 does not have");
                return (Encoding.UTF8.GetBytes(broken), GrpcWebExpectation.Status(3));
            case 4 when text.Length >= 8:
                // One character into a group of four: no base64 ends so.
                mutations.Add("base64 cut one character into a group");
                return (Encoding.ASCII.GetBytes(text[..(text.Length - 7)]), GrpcWebExpectation.Status(3));
            default:
                return (Encoding.ASCII.GetBytes(text), null);
        }
    }

    private static string ContentType(Random random, string type, List<string> mutations)
    {
        switch (random.Next(8))
        {
            case 0:
                var shouted = string.Concat(type.Select(c => random.Next(2) == 0 ? char.ToUpperInvariant(c) : c));
                mutations.Add("the type in other cases");
                return shouted;
            case 1:
                mutations.Add("a charset parameter");
                return type + "; charset=utf-8";
            default:
                return type;
        }
    }

    private static GrpcWebExpectation AddHeaders(Random random, List<(string, string)> headers, GrpcWebExpectation expected, List<string> mutations)
    {
        switch (random.Next(8))
        {
            case 0:
                var bad = random.Pick(BadTimeouts);
                headers.Add(("grpc-timeout", bad));
                mutations.Add($"grpc-timeout '{bad}'");
                expected = expected.HttpStatus == 200 ? GrpcWebExpectation.Status(3) : expected;
                break;
            case 1:
                var instant = random.Pick(["1n", "1u", "0m", "0S"]);
                headers.Add(("grpc-timeout", instant));
                mutations.Add($"grpc-timeout '{instant}', past at once");
                expected = expected.OrDeadline();
                break;
            default:
                // A deadline on every other call: nothing waits longer than that, whatever a mutation made of the request.
                headers.Add(("grpc-timeout", "10S"));
                break;
        }

        if (random.Next(4) == 0)
        {
            var encoding = random.Pick(["gzip", "identity", "br", "deflate, gzip", ""]);
            headers.Add(("grpc-encoding", encoding));
            mutations.Add($"grpc-encoding '{encoding}'");
        }

        if (random.Next(3) == 0)
        {
            var accept = random.Pick(["gzip", "identity,deflate,gzip", "br", "*"]);
            headers.Add(("grpc-accept-encoding", accept));
            mutations.Add($"grpc-accept-encoding '{accept}'");
        }

        if (random.Next(3) == 0)
        {
            headers.Add(("x-grpc-web", "1"));
            headers.Add(("x-user-agent", "grpc-web-javascript/0.1"));
        }

        return expected;
    }
}

/// <summary>One gRPC-Web request: path, <c>Content-Type</c> as sent and the gRPC-Web type it is, HTTP version, headers, body, how it was made and what it must be answered.</summary>
public sealed record GrpcWebCase(
    string Path, string ContentType, string Type, bool Http2, List<(string Name, string Value)> Headers, byte[] Body, string Mutation, GrpcWebExpectation Expected);

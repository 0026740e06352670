using System.Buffers.Binary;
using System.Globalization;
using System.Text;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoHttp.FunctionalTests.Protos.Streaming;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Malformed streaming requests from one seeded <see cref="Random"/>: envelope bodies with bad flags, lengths past the
/// body or past the limit, truncated headers and payloads, broken payloads; and bodies shaped as SSE or NDJSON, sent as
/// what they are and as JSON or envelopes, among them single NDJSON lines that are a JSON request.
/// </summary>
public static class StreamMutator
{
    public const string Count = "/streaming_service.proto/Count";
    public const string Sum = "/streaming_service.proto/Sum";

    /// <summary>The mutation of every <see cref="EventAndLineShapedCases"/> case.</summary>
    public const string Shaped = "SSE/NDJSON-shaped body";

    private static readonly string?[] Accepts = [null, StreamWire.Events, StreamWire.Lines, StreamWire.ConnectProto, StreamWire.ConnectJson, "*/*"];

    public static IEnumerable<FuzzCase> EnvelopeCases(Random random, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var mediaType = random.Next(2) == 0 ? StreamWire.ConnectProto : StreamWire.ConnectJson;
            // Sum takes a stream of ticks; Count takes exactly one request envelope.
            var toSum = random.Next(3) != 0;
            var valid = toSum
                ? Enumerable.Range(0, 1 + random.Next(4)).SelectMany(n => StreamWire.Envelope(Tick(random, n), mediaType)).ToArray()
                : StreamWire.Envelope(new CountRequest { Count = random.Next(4) }, mediaType);
            var (body, mutation) = MutateEnvelopes(random, valid);
            yield return FuzzCase.Post(toSum ? Sum : Count, mediaType, body, mutation, random.Pick(Accepts)) with
            {
                Envelopes = mediaType == StreamWire.ConnectProto ? EnvelopeVerdict.Of(body, toSum ? Protos.Streaming.Tick.Parser : CountRequest.Parser) : null,
            };
        }
    }

    public static IEnumerable<FuzzCase> EventAndLineShapedCases(Random random, int count)
    {
        string[] contentTypes = [StreamWire.Events, StreamWire.Lines, "application/jsonl", "application/json", StreamWire.ConnectJson, "text/plain"];
        for (var i = 0; i < count; i++)
        {
            if (random.Next(8) == 0)
            {
                // One NDJSON line that is a CountRequest's JSON: sent as JSON, a request after all.
                var line = string.Format(CultureInfo.InvariantCulture, random.Pick(["{{\"count\":{0}}}\n", "{{ \"count\" : \"{0}\" }}\r\n", "{{\"count\":{0},\"failCode\":\"\"}}\n"]), random.Next(6));
                yield return FuzzCase.Post(Count, random.Pick(["application/json", "application/json; charset=utf-8"]), Encoding.UTF8.GetBytes(line), Shaped, random.Pick(Accepts));
                continue;
            }

            var text = random.Next(2) == 0 ? EventText(random) : LineText(random);
            var bytes = Encoding.UTF8.GetBytes(text);
            if (random.Next(3) == 0)
            {
                (bytes, _) = Mutations.MutateBytes(random, bytes, "{}[]:,\"\n\r data event end result error"u8);
            }

            yield return FuzzCase.Post(random.Next(2) == 0 ? Count : Sum, random.Pick(contentTypes), bytes, Shaped, random.Pick(Accepts));
        }
    }

    public static Tick Tick(Random random, int sequence) => new()
    {
        Sequence = sequence,
        Text = random.Next(4) == 0 ? "x" : "",
        Padding = ByteString.CopyFrom(new byte[random.Next(40)]),
    };

    public static (byte[] Body, string Mutation) MutateEnvelopes(Random random, byte[] valid)
    {
        var body = valid.ToArray();
        switch (random.Next(9))
        {
            case 0:
                body[0] = (byte)(1 + random.Next(255));
                return (body, $"flags 0x{body[0]:x2}");
            case 1:
                BinaryPrimitives.WriteUInt32BigEndian(body.AsSpan(1), (uint)(body.Length + random.Next(1, 1000)));
                return (body, "length past the body");
            case 2:
                BinaryPrimitives.WriteUInt32BigEndian(body.AsSpan(1), random.Next(2) == 0 ? uint.MaxValue : (4u * 1024 * 1024) + 1);
                return (body, "length past the limit");
            case 3:
                return (body[..random.Next(1, 5)], "truncated header");
            case 4:
                return (body[..random.Next(5, body.Length)], "truncated payload");
            case 5:
                return ([.. body, .. Enumerable.Range(0, 1 + random.Next(8)).Select(_ => (byte)random.Next(256))], "trailing garbage");
            case 6:
                return ([.. body, .. StreamWire.Envelope([], flags: (byte)random.Next(4))], "an empty envelope after");
            case 7:
                return ([], "empty body");
            default:
                return (Mutations.MutateBytes(random, body, "\0\u0001\u0002\u00ff{}\""u8).Bytes, "byte mutation");
        }
    }

    private static string EventText(Random random)
    {
        string[] lines = ["data: {\"count\":2}", "event: end", "data: {\"code\":\"OK\"}", ":", "id: 7", "retry: 10", "data: {", "data: }", "data:", "event:"];
        return string.Join('\n', Enumerable.Range(0, 1 + random.Next(6)).Select(_ => random.Pick(lines))) + (random.Next(2) == 0 ? "\n\n" : "");
    }

    private static string LineText(Random random)
    {
        string[] lines = ["{\"result\":{\"sequence\":1}}", "{\"error\":{\"code\":\"NOT_FOUND\"}}", "{\"count\":2}", "{", "[]", "", "{\"result\":", "null", "{\"metadata\":{}}"];
        return string.Join('\n', Enumerable.Range(0, 1 + random.Next(6)).Select(_ => random.Pick(lines))) + "\n";
    }
}

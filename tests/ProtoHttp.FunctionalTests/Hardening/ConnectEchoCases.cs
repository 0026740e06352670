using System.Text;
using System.Text.Json.Nodes;
using Google.Protobuf;
using Google.Protobuf.Reflection;
using ProtoHttp.FunctionalTests.Infrastructure;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Generated Connect unary calls whose answer is known (<see cref="ConnectDue"/>): random valid Specimens written by
/// Google.Protobuf (JSON in its name and enum styles, or protobuf), sent as JSON POST bodies to Echo or as GET queries
/// (<c>?connect=v1&amp;encoding=json|proto&amp;message=…[&amp;base64=1][&amp;compression=gzip]</c>, docs/protocol.md
/// and Connect's GET) to SafeEcho; and the same with one value made wrong, one unknown name added, or one query
/// parameter made wrong, each refusal due to quote what was wrong.
/// </summary>
public static class ConnectEchoCases
{
    public const string Echo = "/protohttp.hardening.Hardening/Echo";
    public const string SafeEcho = "/protohttp.hardening.Hardening/SafeEcho";

    // Kestrel answers 414 past 8 KiB of request line: generated GETs keep below it.
    private const int MaxTarget = 7 * 1024;

    // The Any a generated Specimen packs holds a Timestamp.
    private static readonly TypeRegistry Types = TypeRegistry.FromFiles(Specimen.Descriptor.File, Google.Protobuf.WellKnownTypes.Timestamp.Descriptor.File);

    // Top-level fields whose JSON and proto names are one, and the kind of text each takes.
    private static readonly (string Name, LeafKind Kind)[] Corruptible =
    [
        ("i32", LeafKind.Signed32), ("i64", LeafKind.Signed64), ("u32", LeafKind.Unsigned32), ("u64", LeafKind.Unsigned64),
        ("s32", LeafKind.Signed32), ("f64", LeafKind.Unsigned64), ("flt", LeafKind.Floating), ("dbl", LeafKind.Floating),
        ("flag", LeafKind.Bool), ("color", LeafKind.Enum), ("data", LeafKind.Bytes), ("at", LeafKind.Timestamp),
        ("took", LeafKind.Duration), ("maybe", LeafKind.Int32Wrapper),
    ];

    public static IEnumerable<ConnectCase> JsonPosts(Random random, JsonReference reference, int count)
    {
        var generator = new SpecimenGenerator(random, formOnly: false);
        for (var i = 0; i < count; i++)
        {
            var (json, due, mutation) = Json(random, reference, generator.Next().Message);
            var body = Encoding.UTF8.GetBytes(json);
            var gzip = random.Next(4) == 0;
            yield return new ConnectCase("POST", Echo, random.Pick(["application/json", "application/json; charset=utf-8"]), gzip ? "gzip" : null,
                gzip ? ConnectWire.Gzip(body) : body, $"{mutation}{(gzip ? ", gzip" : "")}") { Due = due };
        }
    }

    public static IEnumerable<ConnectCase> Gets(Random random, JsonReference reference, int count)
    {
        var generator = new SpecimenGenerator(random, formOnly: false);
        for (var made = 0; made < count;)
        {
            var message = generator.Next().Message;
            var json = random.Next(2) == 0;
            var (bytes, due, mutation) = (message.ToByteArray(), ConnectDue.Answer(message), "generated, valid");
            if (json)
            {
                var (text, jsonDue, how) = Json(random, reference, message);
                (bytes, due, mutation) = (Encoding.UTF8.GetBytes(text), jsonDue, how);
            }

            var compressed = random.Next(4) == 0;
            var base64 = !json || compressed || random.Next(3) == 0;
            var payload = compressed ? ConnectWire.Gzip(bytes) : bytes;
            var parameters = new List<string>
            {
                "encoding=" + (json ? "json" : "proto"),
                "message=" + (base64 ? Base64Url(random, payload) : Uri.EscapeDataString(Encoding.UTF8.GetString(bytes))),
            };
            if (random.Next(10) > 0)
            {
                parameters.Add("connect=v1");
            }

            if (base64)
            {
                parameters.Add("base64=1");
            }

            if (compressed || random.Next(8) == 0)
            {
                parameters.Add("compression=" + (compressed ? random.Pick(["gzip", "GZIP"]) : random.Pick(["identity", ""])));
            }

            if (due.Echo is not null && random.Next(4) == 0)
            {
                (due, mutation) = ParameterFault(random, parameters, base64);
            }

            var target = $"{SafeEcho}?{string.Join('&', parameters.OrderBy(_ => random.Next()))}";
            if (target.Length <= MaxTarget)
            {
                made++;
                yield return new ConnectCase("GET", target, null, null, null, $"{mutation}, {(json ? "json" : "proto")}{(base64 ? ", base64" : "")}{(compressed ? ", gzip" : "")}") { Due = due };
            }
        }
    }

    /// <summary>Google.Protobuf's JSON of <paramref name="message"/>; one in three with a value made wrong or an unknown name added.</summary>
    private static (string Json, ConnectDue Due, string Mutation) Json(Random random, JsonReference reference, Specimen message)
    {
        var settings = JsonFormatter.Settings.Default.WithTypeRegistry(Types)
            .WithPreserveProtoFieldNames(random.Next(2) == 0).WithFormatEnumsAsIntegers(random.Next(2) == 0);
        var json = new JsonFormatter(settings).Format(message);
        switch (random.Next(6))
        {
            case 0:
            {
                var (name, kind) = random.Pick(Corruptible);
                var wrong = SpecimenCorruption.WrongText(random, kind);
                var node = JsonNode.Parse(json)!.AsObject();
                node[name] = wrong;
                json = node.ToJsonString();
                // Google.Protobuf decides: a text it still reads (a number in a string) is due as it reads it.
                return (json, ConnectDue.OfJson(reference, Encoding.UTF8.GetBytes(json), name)!, $"generated, {name} = \"{wrong}\"");
            }

            case 1:
            {
                var unknown = SpecimenCorruption.UnknownName(random);
                var node = JsonNode.Parse(json)!.AsObject();
                node[unknown] = 1;
                json = node.ToJsonString();
                return (json, ConnectDue.OfJson(reference, Encoding.UTF8.GetBytes(json), unknown)!, $"generated, unknown name {unknown}");
            }

            default:
                return (json, ConnectDue.Answer(message), "generated, valid");
        }
    }

    /// <summary>Makes one query parameter wrong (Connect's GET): the refusal it is due, quoting the parameter or its value.</summary>
    private static (ConnectDue Due, string Mutation) ParameterFault(Random random, List<string> parameters, bool base64)
    {
        void Replace(string name, string? value)
        {
            parameters.RemoveAll(p => p.StartsWith(name + "=", StringComparison.Ordinal));
            if (value is not null)
            {
                parameters.Add($"{name}={value}");
            }
        }

        switch (random.Next(base64 ? 6 : 5))
        {
            case 0:
                Replace("connect", "v2");
                return (ConnectDue.Invalid("connect", "v2"), "connect=v2");
            case 1:
                Replace("encoding", null);
                return (ConnectDue.Invalid("encoding"), "no encoding");
            case 2:
                var encoding = random.Pick(["xml", "yaml", "protobuf"]);
                Replace("encoding", encoding);
                return (ConnectDue.Refusal(415, "invalid_argument", $"'{encoding}'"), $"encoding={encoding}");
            case 3:
                var flag = random.Pick(["2", "true", "yes"]);
                Replace("base64", flag);
                return (ConnectDue.Invalid("base64", $"'{flag}'"), $"base64={flag}");
            case 4:
                var compression = random.Pick(["br", "deflate", "zstd"]);
                Replace("compression", compression);
                return (ConnectDue.Refusal(501, "unimplemented", $"'{compression}'"), $"compression={compression}");
            default:
                var message = parameters.Single(p => p.StartsWith("message=", StringComparison.Ordinal));
                Replace("message", message["message=".Length..] + random.Pick(["*", "%21", "."]));
                return (ConnectDue.Invalid("message", "base64url"), "message not base64url");
        }
    }

    private static string Base64Url(Random random, byte[] bytes)
    {
        var text = Convert.ToBase64String(bytes).Replace('+', '-').Replace('/', '_');
        return random.Next(2) == 0 ? text.TrimEnd('=') : text.Replace("=", "%3D");
    }
}

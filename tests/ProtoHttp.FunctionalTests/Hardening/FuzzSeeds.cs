using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Microsoft.Extensions.DependencyInjection;
using Northwind;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtoService;
using SearchService.Catalog;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// Valid requests to mutate, in every format: Search, Roundtrip with real Northwind orders, GetOrders, and the
/// hardening Specimen with every kind of field. The XML seeds come from the server itself, so they are its own XML.
/// </summary>
public sealed class FuzzSeeds
{
    public const string Search = "/ProtoService.proto/Search";
    public const string Roundtrip = "/Northwind.proto/Roundtrip";
    public const string GetOrders = "/Northwind.proto/GetOrders";
    public const string Echo = "/hardening.proto/Echo";

    public static readonly IReadOnlyDictionary<string, MessageParser> ResponseParsers = new Dictionary<string, MessageParser>
    {
        [Search] = SearchResponse.Parser,
        [Roundtrip] = OrderList.Parser,
        [GetOrders] = OrderList.Parser,
        [Echo] = Specimen.Parser,
    };

    private FuzzSeeds(List<(string, IMessage)> messages, List<(string, string)> xml)
    {
        Protobuf = messages.Select(m => (m.Item1, m.Item2.ToByteArray())).ToList();
        Json = messages.Select(m => (m.Item1, JsonFormatter.Default.Format(m.Item2))).ToList();
        Xml = xml;
    }

    public IReadOnlyList<(string Path, byte[] Body)> Protobuf { get; }

    public IReadOnlyList<(string Path, string Json)> Json { get; }

    public IReadOnlyList<(string Path, string Xml)> Xml { get; }

    public static IReadOnlyList<(string Path, List<KeyValuePair<string, string>> Pairs)> Form { get; } =
    [
        (Search, Pairs("query=chai")),
        (Search, Pairs("query=tofu", "page_number=1", "result_per_page=5")),
        (Search, Pairs("query=queso cabrales", "pageNumber=2", "resultPerPage=3")),
        (GetOrders, Pairs()),
        (Roundtrip, Pairs()),
        (Echo, Pairs(
            "i32=-5", "i64=9223372036854775807", "u32=4294967295", "u64=18446744073709551615", "s32=-7", "s64=-9223372036854775808",
            "f32=3", "f64=4", "sf32=-9", "sf64=-10", "flt=1.5", "dbl=-2.25", "flag=true", "text=héllo <&>", "data=AQL/", "color=GREEN",
            "child.i32=1", "child.text=inner", "child.child.flag=1", "tags=a", "tags=b", "numbers=1", "numbers=300", "counts[a]=1",
            "name=n", "at=2024-01-02T03:04:05Z", "took=1.5s", "maybe=7", "label=lbl", "mask=a.b,c", "colors=RED")),
        (Echo, Pairs("text=x", "child.child.child.i32=3", "counts[b]=-1", "code=5")),
    ];

    public static async Task<FuzzSeeds> CreateAsync(SampleServer server)
    {
        var orders = server.Services.GetRequiredService<NorthwindOrders>().All.Orders;
        var messages = new List<(string, IMessage)>
        {
            (Search, new SearchRequest { Query = "chai" }),
            (Search, new SearchRequest { Query = "tofu", PageNumber = 1, ResultPerPage = 5 }),
            (Search, new SearchRequest { Query = "queso cabrales", PageNumber = 2, ResultPerPage = 3 }),
            (GetOrders, new OrdersRequest()),
            (Roundtrip, new OrderList { Orders = { orders[0] } }),
            (Roundtrip, new OrderList { Orders = { orders.Skip(1).Take(4) } }),
            (Roundtrip, new OrderList { Orders = { orders.Skip(100).Take(10) } }),
            (Echo, FullSpecimen()),
            (Echo, new Specimen { Text = "x", Child = new Specimen { Child = new Specimen { I32 = 3 } }, Code = 5 }),
        };

        var xml = new List<(string, string)>
        {
            (Search, "<root><query>chai</query></root>"),
            (Search, "<SearchRequest><query>tofu</query><page_number>1</page_number><result_per_page>5</result_per_page></SearchRequest>"),
            (GetOrders, "<root/>"),
        };
        foreach (var (path, message) in messages.Where(m => m.Item1 is Roundtrip or Echo))
        {
            // The server's own XML for the message, through the echoing methods.
            var request = Wire.Post(path, message, "application/x-protobuf", "application/xml");
            using var response = await server.Client.SendAsync(request);
            response.EnsureSuccessStatusCode();
            xml.Add((path, await response.Content.ReadAsStringAsync()));
        }

        return new FuzzSeeds(messages, xml);
    }

    public static Specimen FullSpecimen()
    {
        var specimen = new Specimen
        {
            I32 = -5, I64 = long.MaxValue, U32 = uint.MaxValue, U64 = ulong.MaxValue, S32 = -7, S64 = long.MinValue, F32 = 3, F64 = 4, Sf32 = -9, Sf64 = -10,
            Flt = 1.5f, Dbl = -2.25, Flag = true, Text = "héllo <&>", Data = ByteString.CopyFrom(1, 2, 255), Color = Color.Green,
            Child = new Specimen { I32 = 1, Text = "inner", Child = new Specimen { Flag = true } },
            Name = "n",
            At = Timestamp.FromDateTime(new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Utc)),
            Took = Duration.FromTimeSpan(TimeSpan.FromSeconds(1.5)),
            Maybe = 7,
            Label = "lbl",
            Mask = FieldMask.FromString("a.b,c"),
            Extra = Struct.Parser.ParseJson("""{"k":[1,"v",null,true],"o":{"p":2}}"""),
        };
        specimen.Children.Add(new Specimen { I32 = 2 });
        specimen.Tags.Add(["a", "b"]);
        specimen.Numbers.Add([1, -1, 300]);
        specimen.Counts["a"] = 1;
        specimen.ById[5] = new Specimen { Text = "five" };
        specimen.Colors.Add(Color.Red);
        return specimen;
    }

    private static List<KeyValuePair<string, string>> Pairs(params string[] pairs) =>
        pairs.Select(p => p.Split('=', 2)).Select(p => new KeyValuePair<string, string>(p[0], p[1])).ToList();
}

using System.Buffers;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using Google.Protobuf;
using Northwind;
using ProtoHttp;
using SearchService.Catalog;

// AotCodecs [--data DIR] [--rounds N] [--calls N] [--warmup N]: W1 (830 orders) written and read in JSON by ProtoHttp
// and by Google.Protobuf, interleaved round by round after a warm-up (under the JIT, tiered compilation reaches its
// optimized code only after some calls); prints each one's median time per call and the ratios.
var data = Option("--data") ?? Path.Combine(AppContext.BaseDirectory, "../../../../../samples/SearchService/Data");
var rounds = int.Parse(Option("--rounds") ?? "15", CultureInfo.InvariantCulture);
var calls = int.Parse(Option("--calls") ?? "10", CultureInfo.InvariantCulture);
var warmup = int.Parse(Option("--warmup") ?? "100", CultureInfo.InvariantCulture);

var orders = NorthwindOrders.Load(data).All;
var codecs = new MessageCodecs(FormatOptions.Default);
var json = codecs.Codec(CodecNames.Json);
var reader = codecs.Codec(CodecNames.Json);
var output = new ArrayBufferWriter<byte>(1 << 20);
json.Write(orders, output);
var body = output.WrittenSpan.ToArray();
var text = Encoding.UTF8.GetString(body);
if (JsonFormatter.Default.Format(orders) != text || !reader.Read(new ReadOnlySequence<byte>(body), OrderList.Descriptor).Equals(orders))
{
    Console.Error.WriteLine("AotCodecs: ProtoHttp's JSON differs from JsonFormatter's, or does not read back");
    return 1;
}

(string Name, Action Call)[] work =
[
    ("ProtoHttp JSON write", () => { output.ResetWrittenCount(); json.Write(orders, output); }),
    ("JsonFormatter write", () => Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(orders))),
    ("ProtoHttp JSON read", () => reader.Read(new ReadOnlySequence<byte>(body), OrderList.Descriptor)),
    ("JsonParser read", () => JsonParser.Default.Parse<OrderList>(Encoding.UTF8.GetString(body))),
];
var times = work.Select(_ => new List<double>()).ToArray();
foreach (var (_, call) in work)
{
    for (var c = 0; c < warmup; c++)
    {
        call(); // plans built, code paged in, and under the JIT tiered up
    }

    Thread.Sleep(200); // the JIT's background compilation of the hot methods
}

for (var round = 0; round < rounds; round++)
{
    for (var i = 0; i < work.Length; i++)
    {
        var started = Stopwatch.GetTimestamp();
        for (var c = 0; c < calls; c++)
        {
            work[i].Call();
        }

        times[i].Add(Stopwatch.GetElapsedTime(started).TotalMilliseconds / calls);
    }
}

double Median(List<double> values) => values.Order().ElementAt(values.Count / 2);
var mode = RuntimeFeature.IsDynamicCodeSupported ? "JIT" : "Native AOT";
Console.WriteLine($"W1 JSON, {mode}, {rounds} rounds of {calls} calls, medians per call:");
for (var i = 0; i < work.Length; i++)
{
    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {work[i].Name,-22} {Median(times[i]),8:F2} ms"));
}

Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
    $"  write {Median(times[1]) / Median(times[0]):F2}x JsonFormatter, read {Median(times[3]) / Median(times[2]):F2}x JsonParser"));
return 0;

string? Option(string name)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? args[index + 1] : null;
}

using System.Globalization;
using StreamLoad;
using StreamLoad.Duplex;

// dotnet StreamLoad.dll push        --http URL --h2c URL --count N --runs R [--targets a,b,...]
// dotnet StreamLoad.dll fanout      --http URL --h2c URL --target T --subscribers N --seconds S
// dotnet StreamLoad.dll scaleout    --target protohttp-sse|signalr-json --a URL --b URL --subscribers N --seconds S
//                                   --rate R --redis-port P --kill-pid PID   (W6; see bench/scale-out.sh)
// dotnet StreamLoad.dll client-read --http URL --h2c URL --count N --runs R
// dotnet StreamLoad.dll duplex      --http URL --h2c URL --target T --sockets N --seconds S
// Prints one JSON line per measurement on stdout; exits 1 if any measurement failed (a typed client that cannot stream
// yet is reported as not available, and is no failure).
if (args.Length == 0)
{
    Console.Error.WriteLine("usage: StreamLoad push|fanout|client-read|duplex --http URL --h2c URL [options]");
    return 2;
}

var options = new Options(args[1..]);
if (args[0] == "scaleout")
{
    return await ScaleOutBenchmark.RunAsync(options, new JsonLines(Console.Out));
}

using var peers = new Peers(new Uri(options.Text("--http", "http://127.0.0.1:5201")), new Uri(options.Text("--h2c", "http://127.0.0.1:5202")));
var output = new JsonLines(Console.Out);
return args[0] switch
{
    "push" => await PushBenchmark.RunAsync(peers, options, output),
    "fanout" => await FanOutBenchmark.RunAsync(peers, options, output),
    "client-read" => await ClientReadBenchmark.RunAsync(peers, options, output),
    "duplex" => await DuplexBenchmark.RunAsync(peers, options, output),
    _ => 2,
};

/// <summary>The command line's <c>--name value</c> pairs.</summary>
internal sealed class Options(string[] args)
{
    public string Text(string name, string fallback)
    {
        var index = Array.IndexOf(args, name);
        return index >= 0 && index + 1 < args.Length ? args[index + 1] : fallback;
    }

    public int Number(string name, int fallback) => int.Parse(Text(name, fallback.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture);
}

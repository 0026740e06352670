using System.Globalization;
using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Logging;

namespace ProtoHttp.Bench.Streams.Server;

/// <summary>
/// What every streaming peer process (bench/StreamPeers, bench/ScaleOutPeers) starts from: a slim host that reads no
/// configuration (a copied appsettings.json must not move it), logs warnings only, and listens on loopback alone at the
/// ports the script gave, with no limit on connections; its command-line options; and the collection its
/// <c>/stats</c> measures memory after.
/// </summary>
public static class PeerHost
{
    public static WebApplicationBuilder CreateBuilder(params (int Port, HttpProtocols Protocols)[] listeners)
    {
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [], ContentRootPath = AppContext.BaseDirectory });
        builder.Configuration.Sources.Clear();
        builder.Logging.ClearProviders().AddConsole().SetMinimumLevel(LogLevel.Warning);
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            // W5 holds 10,000 connections and W6 5,000: no connection limit, and HTTP/2 keeps Kestrel's default of 100
            // streams a connection (the clients open more connections as gRPC's and .NET's do).
            kestrel.Limits.MaxConcurrentConnections = null;
            kestrel.Limits.MaxConcurrentUpgradedConnections = null;
            foreach (var (port, protocols) in listeners)
            {
                kestrel.Listen(IPAddress.Loopback, port, o => o.Protocols = protocols);
            }
        });
        return builder;
    }

    /// <summary>The value after <paramref name="name"/> in <paramref name="args"/>, or <paramref name="fallback"/>.</summary>
    public static string Option(string[] args, string name, string fallback)
    {
        var index = Array.IndexOf(args, name);
        return index >= 0 && index + 1 < args.Length ? args[index + 1] : fallback;
    }

    /// <summary>The number after <paramref name="name"/> in <paramref name="args"/>, or <paramref name="fallback"/>.</summary>
    public static int Option(string[] args, string name, int fallback) =>
        int.Parse(Option(args, name, fallback.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture);

    /// <summary>Two full, blocking, compacting collections with the finalizers run between them: what <c>/stats</c> reads memory after.</summary>
    public static void CollectFully()
    {
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
    }
}

using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Records;

namespace ProtoHttp.Bench.Workloads;

/// <summary>Makes W2's record lists: the same bytes for the same count on every run, so sizes compare across runs.</summary>
public static class RecordFactory
{
    /// <summary>The record counts BENCHMARKS.md measures W2 at.</summary>
    public static readonly int[] Counts = [0, 10, 100, 1000];

    private static readonly DateTime Epoch = new(2008, 9, 1, 12, 0, 0, DateTimeKind.Utc);

    public static RecordList Create(int count)
    {
        // A fixed seed: the load generator and the server agree on the bodies without sharing files.
        var random = new Random(20080901);
        var list = new RecordList();
        var data = new byte[32];
        for (var i = 0; i < count; i++)
        {
            random.NextBytes(data);
            list.Records.Add(new Record
            {
                Data = ByteString.CopyFrom(data),
                DataBase64 = Convert.ToBase64String(data),
                Sequence = i,
                Value = i * 1.5 + random.NextDouble(),
                Time = Timestamp.FromDateTime(Epoch.AddMilliseconds(i * 1234.0)),
            });
        }

        return list;
    }
}

using System.Buffers;

namespace ProtoHttp.Tests.Formats;

/// <summary>Splits bytes into a many-segment <see cref="ReadOnlySequence{T}"/>, as a pipe delivers a large body.</summary>
internal sealed class SegmentedSequence : ReadOnlySequenceSegment<byte>
{
    private SegmentedSequence(ReadOnlyMemory<byte> memory, long runningIndex)
    {
        Memory = memory;
        RunningIndex = runningIndex;
    }

    public static ReadOnlySequence<byte> Create(byte[] bytes, int segmentLength)
    {
        var first = new SegmentedSequence(bytes.AsMemory(0, Math.Min(segmentLength, bytes.Length)), 0);
        var last = first;
        for (var start = segmentLength; start < bytes.Length; start += segmentLength)
        {
            var next = new SegmentedSequence(bytes.AsMemory(start, Math.Min(segmentLength, bytes.Length - start)), start);
            last.Next = next;
            last = next;
        }

        return new ReadOnlySequence<byte>(first, 0, last, last.Memory.Length);
    }
}

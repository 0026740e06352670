using System.Buffers;

namespace ProtoHttp;

/// <summary>
/// The JSON and XML writers' cursor into the caller's <see cref="IBufferWriter{T}"/>: bytes go straight into the span
/// it lends, which is committed only when more room is needed or at <see cref="Flush"/>.
/// </summary>
internal ref struct Utf8Output(IBufferWriter<byte> output)
{
    private const int MinimumSpan = 4096;

    private readonly IBufferWriter<byte> _output = output;
    private Span<byte> _span;
    private int _position;

    /// <summary>Room for at least <paramref name="length"/> bytes; call <see cref="Advance"/> with what was used.</summary>
    public Span<byte> Reserve(int length)
    {
        if (_span.Length - _position < length)
        {
            Grow(length);
        }

        return _span[_position..];
    }

    public void Advance(int count) => _position += count;

    public void Write(byte value)
    {
        if (_position == _span.Length)
        {
            Grow(1);
        }

        _span[_position++] = value;
    }

    public void Write(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(Reserve(bytes.Length));
        _position += bytes.Length;
    }

    /// <summary>Commits what was written; the output may be used by others afterwards.</summary>
    public void Flush()
    {
        // Kestrel's pipe refuses Advance(0) before any GetSpan, so nothing is committed when nothing was written.
        if (_position > 0)
        {
            _output.Advance(_position);
        }

        _span = default;
        _position = 0;
    }

    private void Grow(int length)
    {
        Flush();
        _span = _output.GetSpan(Math.Max(length, MinimumSpan));
    }
}

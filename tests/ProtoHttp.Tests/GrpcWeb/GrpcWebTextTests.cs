using System.Buffers;
using System.Text;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.GrpcWeb;

/// <summary>The base64 of <c>application/grpc-web-text</c>: chunks padded where their sender flushed, back to back.</summary>
public sealed class GrpcWebTextTests
{
    private static readonly byte[] Bytes = [.. Enumerable.Range(0, 200).Select(i => (byte)(i * 7))];

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(199)]
    [InlineData(200)]
    public void OnePaddedChunkDecodes(int length) =>
        Assert.Equal(Bytes[..length], GrpcWebText.Decode(Text(Convert.ToBase64String(Bytes, 0, length))));

    [Theory]
    [InlineData(1, 2, 3)]
    [InlineData(4, 5, 191)]
    [InlineData(3, 3, 3)]
    public void ChunksPaddedMidBodyDecodeAsTheirConcatenation(int first, int second, int third)
    {
        var text = Convert.ToBase64String(Bytes, 0, first) + Convert.ToBase64String(Bytes, first, second) + Convert.ToBase64String(Bytes, first + second, third);

        Assert.Equal(Bytes[..(first + second + third)], GrpcWebText.Decode(Text(text)));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(5)]
    public void ALastChunkWithoutItsPaddingDecodes(int length) =>
        Assert.Equal(Bytes[..length], GrpcWebText.Decode(Text(Convert.ToBase64String(Bytes, 0, length).TrimEnd('='))));

    [Fact]
    public void LineBreaksAndSpacesAreSkipped()
    {
        var text = Convert.ToBase64String(Bytes, 0, 100, Base64FormattingOptions.InsertLineBreaks) + "\n " + Convert.ToBase64String(Bytes, 100, 1);

        Assert.Equal(Bytes[..101], GrpcWebText.Decode(Text(text)));
    }

    [Fact]
    public void ABodyInSeveralSegmentsDecodes()
    {
        var text = Encoding.ASCII.GetBytes(Convert.ToBase64String(Bytes, 0, 10) + Convert.ToBase64String(Bytes, 10, 20));

        Assert.Equal(Bytes[..30], GrpcWebText.Decode(Formats.SegmentedSequence.Create(text, 3)));
    }

    [Theory]
    [InlineData("AAA*")]
    [InlineData("A")]
    [InlineData("AAAAA")]
    [InlineData("AA==AA=A")]
    public void WhatIsNotBase64IsRefused(string text)
    {
        var refusal = Assert.Throws<CallRejectedException>(() => GrpcWebText.Decode(Text(text)));

        Assert.Contains("is not base64", refusal.Message);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(200)]
    public void EncodeWritesPaddedBase64(int length)
    {
        var output = new ArrayBufferWriter<byte>();

        GrpcWebText.Encode(Bytes.AsSpan(0, length), output);

        Assert.Equal(Convert.ToBase64String(Bytes, 0, length), Encoding.ASCII.GetString(output.WrittenSpan));
        Assert.Equal(output.WrittenCount, GrpcWebText.EncodedLength(length));
    }

    private static ReadOnlySequence<byte> Text(string text) => new(Encoding.ASCII.GetBytes(text));
}

using System.Buffers;
using System.Buffers.Binary;
using System.Text;
using Grpc.Core;
using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.GrpcWeb;

/// <summary>The trailers frame: flag 0x80, its length, then <c>name: value\r\n</c> lines with the status first.</summary>
public sealed class GrpcWebTrailersTests
{
    [Fact]
    public void ASuccessIsTheStatusAlone()
    {
        var (flags, block) = Frame(StatusCode.OK, "", null);

        Assert.Equal(0x80, flags);
        Assert.Equal("grpc-status: 0\r\n", block);
    }

    [Fact]
    public void AFailureCarriesItsMessageThenTheTrailersInLowerCaseBinaryOnesInBase64()
    {
        var trailers = new Metadata { { "Retry-Info", "later" }, { "trace-bin", new byte[] { 0, 1, 2, 0xff } } };

        var (_, block) = Frame(StatusCode.NotFound, "No product 99.", trailers);

        Assert.Equal("grpc-status: 5\r\ngrpc-message: No product 99.\r\nretry-info: later\r\ntrace-bin: AAEC/w==\r\n", block);
    }

    [Fact]
    public void TheMessageIsPercentEncodedAsGrpcSays()
    {
        var (_, block) = Frame(StatusCode.InvalidArgument, "50% off: prix réduit\r\nnext", null);

        Assert.Equal("grpc-status: 3\r\ngrpc-message: 50%25 off: prix r%C3%A9duit%0D%0Anext\r\n", block);
    }

    [Fact]
    public void TheCallsOwnStatusWinsOverTrailersOfTheSameNameAndUnwritableValuesAreLeftOut()
    {
        var trailers = new Metadata { { "grpc-status", "0" }, { "grpc-message", "fine" }, { "note", "two\r\nlines" }, { "kept", "yes" } };

        var (_, block) = Frame(StatusCode.Internal, "broken", trailers);

        Assert.Equal("grpc-status: 13\r\ngrpc-message: broken\r\nkept: yes\r\n", block);
    }

    [Fact]
    public void PrintableTextGoesOutAsItIs() => Assert.Same("plain text", GrpcWebTrailers.PercentEncode("plain text"));

    private static (byte Flags, string Block) Frame(StatusCode code, string message, Metadata? trailers)
    {
        var output = new ArrayBufferWriter<byte>();
        GrpcWebTrailers.Write(output, code, message, trailers);
        var frame = output.WrittenSpan;
        var length = BinaryPrimitives.ReadInt32BigEndian(frame[1..5]);
        Assert.Equal(frame.Length - 5, length);
        return (frame[0], Encoding.ASCII.GetString(frame[5..]));
    }
}

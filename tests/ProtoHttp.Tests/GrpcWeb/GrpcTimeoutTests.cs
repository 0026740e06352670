using Grpc.Core;
using ProtoHttp.AspNetCore.Internal;
using ProtoHttp.AspNetCore.Protocols.GrpcWeb;

namespace ProtoHttp.Tests.GrpcWeb;

/// <summary>The <c>grpc-timeout</c> header: 1 to 8 digits and a unit, anything else refused with a sentence that says so.</summary>
public sealed class GrpcTimeoutTests
{
    [Theory]
    [InlineData("1H", 3_600_000_000_0L)]
    [InlineData("2M", 1_200_000_000L)]
    [InlineData("1S", 10_000_000L)]
    [InlineData("500m", 5_000_000L)]
    [InlineData("100u", 1_000L)]
    [InlineData("1000n", 10L)]
    [InlineData("0m", 0L)]
    [InlineData("00000005S", 50_000_000L)]
    [InlineData("99999999H", 99_999_999L * 36_000_000_000L)]
    public void EachUnitGivesItsSpan(string value, long ticks) => Assert.Equal(TimeSpan.FromTicks(ticks), GrpcTimeout.Parse(value));

    [Fact]
    public void ATimeoutUnderATickStillExpires() => Assert.Equal(TimeSpan.FromTicks(1), GrpcTimeout.Parse("1n"));

    [Fact]
    public void NoHeaderIsNoTimeout() => Assert.Null(GrpcTimeout.Parse(null));

    [Theory]
    [InlineData("")]
    [InlineData("S")]
    [InlineData("5")]
    [InlineData("5s")]
    [InlineData("5x")]
    [InlineData("-5S")]
    [InlineData("+5S")]
    [InlineData(" 5S")]
    [InlineData("5 S")]
    [InlineData("1.5S")]
    [InlineData("123456789S")]
    [InlineData("٣S")]
    public void AnythingElseIsRefusedNamingTheForm(string value)
    {
        var refusal = Assert.Throws<CallRejectedException>(() => GrpcTimeout.Parse(value));

        Assert.Equal(StatusCode.InvalidArgument, refusal.Code);
        Assert.Contains("1 to 8 digits and a unit", refusal.Message);
        Assert.Contains($"'{value}'", refusal.Message);
    }
}

using System.Text;
using Google.Protobuf;
using ProtoService;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// The differential check judges answers as meant: departures only in their direction and only where their
/// predicate holds, every other difference caught. Answers are made up here, so no server is needed.
/// </summary>
public sealed class JsonDifferentialTests
{
    [Theory]
    [InlineData("{\"i32\":1,\"i32\":2}", true, false, false)]
    [InlineData("{\"byId\":{},\"by_id\":{}}", true, false, false)]
    [InlineData("{\"counts\":{\"a\":\"1\",\"a\":\"2\"}}", true, false, false)]
    [InlineData("{\"extra\":{\"k\":{\"k\":1,\"k\":2}}}", true, false, false)]
    [InlineData("{\"child\":{\"text\":\"a\",\"text\":\"b\"}}", true, false, false)]
    [InlineData("{\"i32\":1,\"child\":{\"i32\":1}}", false, false, false)]
    [InlineData("{\"data\":\"-_8\"}", false, true, false)]
    [InlineData("{\"data\":\"AQ\"}", false, true, false)]
    [InlineData("{\"data\":\"AQ==\"}", false, false, false)]
    [InlineData("{\"data\":\"A\"}", false, false, false)]
    [InlineData("{\"text\":\"-_8\"}", false, false, false)]
    [InlineData("{\"byId\":{\"1\":{\"data\":\"__8\"}}}", false, true, false)]
    [InlineData("{\"code\":1,\"name\":null}", false, false, true)]
    [InlineData("{\"children\":[{\"name\":null}]}", false, false, true)]
    [InlineData("{\"i32\":null,\"extra\":{\"name\":null}}", false, false, false)]
    [InlineData("{\"i32\":1,", false, false, false)]
    public void PredicatesHoldExactlyWhereTheyShould(string json, bool duplicate, bool base64Url, bool nullOneof)
    {
        var found = JsonDepartures.Find(json, Specimen.Descriptor);
        Assert.Equal((duplicate, base64Url, nullOneof), (found.DuplicateField, found.Base64Url, found.NullOneofMember));
    }

    [Fact]
    public void RewrittenBodiesAreWhatTheDepartureMeans()
    {
        Assert.Equal("{\"data\":\"+/8=\",\"code\":1}", JsonDepartures.Find("{\"data\":\"-_8\",\"name\":null,\"code\":1}", Specimen.Descriptor).Normalized);
        Assert.Null(JsonDepartures.Find("{\"i32\":1,\"i32\":2}", Specimen.Descriptor).Normalized);
    }

    [Theory]
    // Agreement.
    [InlineData("{\"i32\":3}", 200, "{\"i32\":3}", JsonDifferential.BothRead)]
    [InlineData("{\"i32\":\"x\"}", 400, null, JsonDifferential.BothRefused)]
    [InlineData("{\"i32\":1,\"i32\":2}", 200, "{\"i32\":2}", JsonDifferential.BothRead)]
    // Departures, in their direction.
    [InlineData("{\"i32\":1,\"i32\":2}", 400, null, JsonDifferential.DuplicateRefused)]
    [InlineData("{\"byId\":{},\"by_id\":{}}", 400, null, JsonDifferential.DuplicateRefused)]
    [InlineData("{\"data\":\"-_8\"}", 200, "{\"data\":\"+/8=\"}", JsonDifferential.Base64UrlRead)]
    [InlineData("{\"data\":\"-_8\"}", 400, null, JsonDifferential.BothRefused)]
    [InlineData("{\"code\":1,\"name\":null}", 200, "{\"code\":1}", JsonDifferential.NullOneofRead)]
    // Real differences.
    [InlineData("{\"i32\":3}", 400, null, JsonDifferential.Different)]
    [InlineData("{\"i32\":3}", 200, "{\"i32\":4}", JsonDifferential.Different)]
    [InlineData("{\"i32\":\"x\"}", 200, "{}", JsonDifferential.Different)]
    [InlineData("{\"i32\":1,\"i32\":2}", 200, "{\"i32\":1}", JsonDifferential.Different)]
    [InlineData("{\"data\":\"-_8\"}", 200, "{\"data\":\"AQ==\"}", JsonDifferential.Different)]
    [InlineData("{\"data\":\"-_8\",\"i32\":\"x\"}", 200, "{\"data\":\"+/8=\"}", JsonDifferential.Different)]
    [InlineData("{\"code\":1,\"name\":null}", 200, "{\"name\":\"\"}", JsonDifferential.Different)]
    [InlineData("{\"code\":1,\"name\":\"a\"}", 200, "{\"name\":\"a\"}", JsonDifferential.Different)]
    [InlineData("{\"text\":\"-_8\"}", 400, null, JsonDifferential.Different)]
    public async Task AnswersAreJudgedByTheirCategory(string json, int status, string? echo, string category)
    {
        var differential = new JsonDifferential(new JsonReference(ignoreUnknownFields: false, maxDepth: 100));
        var answer = status == 200
            ? Specimen.Parser.ParseJson(echo!).ToByteArray()
            : new ErrorResult { Code = "INVALID_ARGUMENT", ErrorText = "refused" }.ToByteArray();
        var response = new RawResponse(status, [("Content-Type", "application/x-protobuf")], answer);
        using var unused = new RawHttpConnection(new Uri("http://127.0.0.1:9"));

        await differential.ObserveAsync(FuzzCase.Post(FuzzSeeds.Echo, "application/json", Encoding.UTF8.GetBytes(json), "test"), response, unused);

        Assert.Equal(1, differential.Count(category));
        Assert.Equal(category == JsonDifferential.Different ? 1 : 0, differential.Differences.Count);
    }
}

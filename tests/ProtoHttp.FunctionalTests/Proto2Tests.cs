using System.Net;
using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Infrastructure;
using ProtobufTestMessages.Proto2;

namespace ProtoHttp.FunctionalTests;

/// <summary>
/// Google's proto2 conformance messages over HTTP in every format (issue 9 item 4): groups, extension ranges, a
/// message-set field and required fields answer as the protocol says, never 500.
/// </summary>
public sealed class Proto2Tests(EchoServerFixture fixture) : IClassFixture<EchoServerFixture>
{
    private const string EchoAllTypes = "/proto2_echo.proto/EchoAllTypes";
    private const string EchoRequiredTypes = "/proto2_echo.proto/EchoRequiredTypes";

    private readonly SampleServer _server = fixture.Server;

    [Theory]
    [InlineData("application/x-protobuf")]
    [InlineData("application/json")]
    [InlineData("application/xml")]
    public async Task EveryFieldSetIsAnsweredInEveryFormatAndReadBackEqual(string format)
    {
        var message = EveryField.Set(new TestAllTypesProto2());

        // Written in the format, then read from it: each way once.
        var written = await PostAsync(EchoAllTypes, message.ToByteArray(), "application/x-protobuf", format);
        var back = await PostAsync(EchoAllTypes, written, format, "application/x-protobuf");

        Assert.Equal(message, TestAllTypesProto2.Parser.ParseFrom(back));
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    [Fact]
    public async Task AFormAndAQueryBindScalarsGroupsAndNestedMessages()
    {
        const string form = "optional_int32=5&optional_string=x&optional_nested_enum=BAZ&data.group_int32=6&optional_nested_message.a=7&map_int32_int32[1]=2&repeated_int32=1&repeated_int32=2";
        var expected = new TestAllTypesProto2
        {
            OptionalInt32 = 5, OptionalString = "x", OptionalNestedEnum = TestAllTypesProto2.Types.NestedEnum.Baz,
            Data = new TestAllTypesProto2.Types.Data { GroupInt32 = 6 },
            OptionalNestedMessage = new TestAllTypesProto2.Types.NestedMessage { A = 7 },
            MapInt32Int32 = { [1] = 2 }, RepeatedInt32 = { 1, 2 },
        };

        var posted = await PostAsync(EchoAllTypes, Encoding.UTF8.GetBytes(form), "application/x-www-form-urlencoded", "application/x-protobuf");
        using var get = new HttpRequestMessage(HttpMethod.Get, EchoAllTypes + "?" + form.Replace("[", "%5B", StringComparison.Ordinal).Replace("]", "%5D", StringComparison.Ordinal));
        get.Headers.Accept.ParseAdd("application/x-protobuf");
        using var queried = await _server.Client.SendAsync(get);

        Assert.Equal(expected, TestAllTypesProto2.Parser.ParseFrom(posted));
        Assert.Equal(HttpStatusCode.OK, queried.StatusCode);
        Assert.Equal(expected, TestAllTypesProto2.Parser.ParseFrom(await queried.Content.ReadAsByteArrayAsync()));
    }

    [Fact]
    public async Task AMessageSetFieldAndExtensionsRoundTripThroughJson()
    {
        var message = new TestAllTypesProto2 { OptionalInt32 = 1, MessageSetCorrect = new TestAllTypesProto2.Types.MessageSetCorrect() };
        message.SetExtension(TestMessagesProto2Extensions.ExtensionInt32, 9);
        message.MessageSetCorrect.SetExtension(
            TestAllTypesProto2.Types.MessageSetCorrectExtension1.Extensions.MessageSetExtension,
            new TestAllTypesProto2.Types.MessageSetCorrectExtension1 { Str = "set" });
        const string json = "{ \"optionalInt32\": 1, \"messageSetCorrect\": { "
            + "\"[protobuf_test_messages.proto2.TestAllTypesProto2.MessageSetCorrectExtension1.message_set_extension]\": { \"str\": \"set\" } }, "
            + "\"[protobuf_test_messages.proto2.extension_int32]\": 9 }";

        var echoed = await PostAsync(EchoAllTypes, Encoding.UTF8.GetBytes(json), "application/json", "application/json");
        var bytes = await PostAsync(EchoAllTypes, Encoding.UTF8.GetBytes(json), "application/json", "application/x-protobuf");

        Assert.Equal(json, Encoding.UTF8.GetString(echoed));
        Assert.Equal(message.ToByteArray(), bytes);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    public static TheoryData<string, string> MissingRequiredBodies => new()
    {
        { "application/x-protobuf", "" },
        { "application/json", "{\"requiredInt32\": 1, \"data\": {\"groupInt32\": 2}, \"requiredNestedMessage\": {}}" },
        { "application/xml", "<root><required_int32>1</required_int32><data><group_int32>2</group_int32></data><required_nested_message></required_nested_message></root>" },
        { "application/x-www-form-urlencoded", "required_int32=1&data.group_int32=2&required_nested_message.a=3" },
    };

    [Theory]
    [MemberData(nameof(MissingRequiredBodies))]
    public async Task MissingRequiredFieldsAre400NamingThemInEveryFormat(string contentType, string body)
    {
        var bytes = contentType == "application/x-protobuf"
            ? new TestAllRequiredTypesProto2 { RequiredInt32 = 1, Data = new() { GroupInt32 = 2 }, RequiredNestedMessage = new() }.ToByteArray()
            : Encoding.UTF8.GetBytes(body);
        using var request = new HttpRequestMessage(HttpMethod.Post, EchoRequiredTypes) { Content = Content(bytes, contentType) };
        request.Headers.Accept.ParseAdd("application/json");

        using var response = await _server.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var error = await Wire.ReadErrorAsync(response);
        Assert.Equal("INVALID_ARGUMENT", error.Code);
        Assert.StartsWith("Missing required fields: 'required_int64', 'required_uint32',", error.ErrorText, StringComparison.Ordinal);
        Assert.Contains("'data.group_uint32'", error.ErrorText, StringComparison.Ordinal);
        Assert.Contains("'required_nested_message.corecursive'", error.ErrorText, StringComparison.Ordinal);
        Assert.DoesNotContain("'required_int32'", error.ErrorText, StringComparison.Ordinal);
        Assert.Empty(await _server.Logs.ErrorsOnceEndedAsync());
    }

    private async Task<byte[]> PostAsync(string path, byte[] body, string contentType, string accept)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, path) { Content = Content(body, contentType) };
        request.Headers.Accept.ParseAdd(accept);
        using var response = await _server.Client.SendAsync(request);
        var answer = await response.Content.ReadAsByteArrayAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{contentType} -> {accept}: {(int)response.StatusCode} {Encoding.UTF8.GetString(answer)}");
        return answer;
    }

    private static ByteArrayContent Content(byte[] body, string contentType)
    {
        var content = new ByteArrayContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        return content;
    }
}

using Conformance;
using Google.Protobuf;
using WireFormat = Conformance.WireFormat;

namespace ProtoHttp.Conformance;

/// <summary>Google.Protobuf's own classes, in-process: the reference ProtoHttp's figures are set beside.</summary>
internal sealed class ReferenceTestee : ITestee
{
    private static readonly JsonFormatter Formatter = new(JsonFormatter.Settings.Default.WithTypeRegistry(TestMessages.Registry));

    public Task<ConformanceResponse> RunAsync(ConformanceRequest request) =>
        Task.FromResult(SkippedCases.Answer(request) ?? Run(request));

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    private static ConformanceResponse Run(ConformanceRequest request)
    {
        TestMessages.TryFind(request.MessageType, out _, out var descriptor);
        IMessage message;
        try
        {
            if (request.PayloadCase == ConformanceRequest.PayloadOneofCase.ProtobufPayload)
            {
                message = descriptor.Parser.ParseFrom(request.ProtobufPayload);
            }
            else
            {
                var settings = JsonParser.Settings.Default.WithTypeRegistry(TestMessages.Registry)
                    .WithIgnoreUnknownFields(request.TestCategory == TestCategory.JsonIgnoreUnknownParsingTest);
                message = new JsonParser(settings).Parse(request.JsonPayload, descriptor);
            }
        }
        catch (Exception ex)
        {
            return new ConformanceResponse { ParseError = ex.Message };
        }

        try
        {
            return request.RequestedOutputFormat == WireFormat.Protobuf
                ? new ConformanceResponse { ProtobufPayload = message.ToByteString() }
                : new ConformanceResponse { JsonPayload = Formatter.Format(message) };
        }
        catch (Exception ex)
        {
            return new ConformanceResponse { SerializeError = ex.Message };
        }
    }
}

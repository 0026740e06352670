using System.Text;
using Google.Protobuf;
using ProtoHttp.FunctionalTests.Protos;

namespace ProtoHttp.FunctionalTests.Hardening;

/// <summary>
/// What a gRPC-Web case must be answered (docs/protocol.md section 12): a refusal by HTTP status (<c>415</c>), or
/// <c>200</c> whose trailers frame says one of <paramref name="Codes"/>. With code 0 the answer's messages are exactly
/// <paramref name="Messages"/>; with code 4 (the deadline) the first of them or none; with any other code, none.
/// </summary>
public sealed record GrpcWebExpectation(int HttpStatus, int[] Codes, IMessage[] Messages)
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private static readonly JsonReference Reference = new(FormatOptions.Default.IgnoreUnknownFields, FormatOptions.Default.MaxDepth);

    /// <summary>A type the server has no gRPC-Web codec for, or a method gRPC-Web cannot call.</summary>
    public static GrpcWebExpectation Refused { get; } = new(415, [], []);

    public static GrpcWebExpectation Status(int code) => new(200, [code], []);

    public static GrpcWebExpectation Ok(params IMessage[] messages) => new(200, [0], messages);

    /// <summary>
    /// What Echo must answer for <paramref name="payload"/> in one well-formed frame: what Google.Protobuf reads from it
    /// (its parser for protobuf; for JSON, <see cref="JsonReference"/> with the reader's deliberate departures from it,
    /// <see cref="JsonDepartures"/>), echoed; <c>3</c> where it reads nothing.
    /// </summary>
    public static GrpcWebExpectation ReadBy(byte[] payload, bool json)
    {
        if (!json)
        {
            try
            {
                return Ok(Tree.Parser.ParseFrom(payload));
            }
            catch (InvalidProtocolBufferException)
            {
                return Status(3);
            }
        }

        string text;
        try
        {
            text = StrictUtf8.GetString(payload);
        }
        catch (DecoderFallbackException)
        {
            return Status(3);
        }

        var departures = JsonDepartures.Find(text, Tree.Descriptor);
        if (Reference.Parse(text, Tree.Descriptor).Message is { } read)
        {
            // Departure 1: a field given twice may be refused.
            return departures.DuplicateField ? new(200, [0, 3], [read]) : Ok(read);
        }

        // Departure 2: base64url or unpadded bytes may be read as what the rewritten body says.
        return departures.Normalized is { } normalized && Reference.Parse(normalized, Tree.Descriptor).Message is { } rewritten
            ? new(200, [0, 3], [rewritten])
            : Status(3);
    }

    /// <summary>The same, or the deadline's <c>4</c>: the call's deadline passed at once.</summary>
    public GrpcWebExpectation OrDeadline() => HttpStatus == 200 && !Codes.Contains(4) ? this with { Codes = [.. Codes, 4] } : this;

    public override string ToString() =>
        HttpStatus == 200 ? $"200, grpc-status {string.Join(" or ", Codes)}, {Messages.Length} messages on success" : $"{HttpStatus}";
}

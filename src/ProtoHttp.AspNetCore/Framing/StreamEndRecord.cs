using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;
using Grpc.Core;
using ProtoHttp.AspNetCore.Internal;

namespace ProtoHttp.AspNetCore.Framing;

/// <summary>
/// Writes the JSON of a stream's last record (docs/protocol.md section 10): the outcome and the trailers as
/// <c>"metadata": {"name": ["value"]}</c>, binary values in base64.
/// </summary>
internal static class StreamEndRecord
{
    // Readable in curl and a browser: only what JSON itself requires is escaped.
    private static readonly JsonWriterOptions Options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>The data of the <c>end</c> event: <c>{"code":"OK"}</c> or the ErrorResult's JSON, with the trailers.</summary>
    public static void WriteEventData(StreamOutcome outcome, IBufferWriter<byte> output)
    {
        using var json = new Utf8JsonWriter(output, Options);
        json.WriteStartObject();
        WriteErrorResultMembers(json, outcome);
        WriteMetadata(json, outcome.Trailers);
        json.WriteEndObject();
    }

    /// <summary>
    /// The last line of an NDJSON stream: <c>{"error": ErrorResult}</c> for a failure, with the trailers beside it; for
    /// a success only the trailers, if any. Returns <see langword="false"/> when the stream needs no last line.
    /// </summary>
    public static bool WriteLine(StreamOutcome outcome, IBufferWriter<byte> output)
    {
        if (outcome.Code == StatusCode.OK && outcome.Trailers is not { Count: > 0 })
        {
            return false;
        }

        using (var json = new Utf8JsonWriter(output, Options))
        {
            json.WriteStartObject();
            if (outcome.Code != StatusCode.OK)
            {
                json.WriteStartObject("error");
                WriteErrorResultMembers(json, outcome);
                json.WriteEndObject();
            }

            WriteMetadata(json, outcome.Trailers);
            json.WriteEndObject();
        }

        output.Write("\n"u8);
        return true;
    }

    /// <summary>
    /// The payload of the end-stream envelope, the envelope framing's last record in every protocol that uses it (docs/protocol.md
    /// section 10): <c>{"error": {"code", "message", "details"}, "metadata": …}</c>, as Connect's streams defined it, the
    /// details those of the <c>google.rpc.Status</c> in the trailers, which then stays out of the metadata.
    /// </summary>
    public static void WriteEnvelopeEnd(StreamOutcome outcome, IBufferWriter<byte> output)
    {
        using var json = new Utf8JsonWriter(output, Options);
        json.WriteStartObject();
        if (outcome.Code != StatusCode.OK)
        {
            json.WriteStartObject("error");
            json.WriteString("code", ConnectCodes.Name(outcome.Code));
            if (outcome.Text.Length > 0)
            {
                json.WriteString("message", PrintableText.EscapeLoneSurrogates(outcome.Text));
            }

            if (outcome.Trailers is { } trailers)
            {
                RpcStatusDetails.WriteConnectDetails(json, RpcStatusDetails.Read(trailers));
            }

            json.WriteEndObject();
        }

        WriteMetadata(json, outcome.Trailers, except: RpcStatusDetails.TrailerName);
        json.WriteEndObject();
    }

    // ErrorResult's JSON members, in the order its JSON mapping writes them.
    private static void WriteErrorResultMembers(Utf8JsonWriter json, StreamOutcome outcome)
    {
        json.WriteString("code", StatusMapping.ToCodeName(outcome.Code));
        if (outcome.Text.Length > 0)
        {
            json.WriteString("errorText", PrintableText.EscapeLoneSurrogates(outcome.Text));
        }
    }

    private static void WriteMetadata(Utf8JsonWriter json, Metadata? trailers, string? except = null)
    {
        if (trailers is not { Count: > 0 } || trailers.All(entry => entry.Key == except))
        {
            return;
        }

        json.WriteStartObject("metadata");
        var written = new HashSet<string>(StringComparer.Ordinal);
        foreach (var entry in trailers)
        {
            if (entry.Key == except || !written.Add(entry.Key))
            {
                continue;
            }

            json.WriteStartArray(entry.Key);
            foreach (var value in trailers)
            {
                if (value.Key == entry.Key)
                {
                    json.WriteStringValue(value.IsBinary ? Convert.ToBase64String(value.ValueBytes) : PrintableText.EscapeLoneSurrogates(value.Value));
                }
            }

            json.WriteEndArray();
        }

        json.WriteEndObject();
    }
}

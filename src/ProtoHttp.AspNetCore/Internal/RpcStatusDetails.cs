using System.Text.Json;
using Google.Protobuf;
using Google.Protobuf.WellKnownTypes;
using Grpc.Core;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// The details of a rich error: grpc-dotnet's <c>RpcException</c> carries a <c>google.rpc.Status</c> in the
/// <c>grpc-status-details-bin</c> trailer (what <c>Grpc.StatusProto</c>'s <c>ToRpcException()</c> puts there).
/// Read here without a dependency on the googleapis types: a Status is code 1, message 2, repeated Any 3. Written as
/// Connect's <c>details</c>, in unary errors and in the end-stream envelope alike.
/// </summary>
internal static class RpcStatusDetails
{
    public const string TrailerName = "grpc-status-details-bin";

    private const int DetailsFieldNumber = 3;

    /// <summary>The <c>Any</c>s of the Status in <paramref name="trailers"/>; empty when there is none or it is unreadable.</summary>
    public static IReadOnlyList<Any> Read(Metadata trailers)
    {
        if (trailers.Get(TrailerName) is not { IsBinary: true } entry)
        {
            return [];
        }

        var details = new List<Any>();
        try
        {
            var input = new CodedInputStream(entry.ValueBytes);
            while (input.ReadTag() is var tag and not 0)
            {
                if (WireFormat.GetTagFieldNumber(tag) == DetailsFieldNumber && WireFormat.GetTagWireType(tag) == WireFormat.WireType.LengthDelimited)
                {
                    var detail = new Any();
                    input.ReadMessage(detail);
                    details.Add(detail);
                }
                else
                {
                    input.SkipLastField();
                }
            }
        }
        catch (InvalidProtocolBufferException)
        {
            // The app's own trailer, not a Status after all: the error still goes out, without details.
            return [];
        }

        return details;
    }

    /// <summary>Connect's <c>"details"</c> member: each detail's type name without its URL prefix, its bytes in base64 without padding.</summary>
    public static void WriteConnectDetails(Utf8JsonWriter json, IReadOnlyList<Any> details)
    {
        if (details.Count == 0)
        {
            return;
        }

        json.WriteStartArray("details");
        foreach (var detail in details)
        {
            json.WriteStartObject();
            json.WriteString("type", detail.TypeUrl[(detail.TypeUrl.LastIndexOf('/') + 1)..]);
            json.WriteString("value", Convert.ToBase64String(detail.Value.Span).TrimEnd('='));
            json.WriteEndObject();
        }

        json.WriteEndArray();
    }
}

using Google.Protobuf;

namespace ProtoHttp.Benchmarks;

/// <summary>
/// ProtoHttp's codecs as the server builds them. The XML and form codecs are written on another branch and register
/// themselves in <see cref="MessageCodecs"/>; until they do, the benchmarks that need them are left out of the run.
/// </summary>
internal static class Codecs
{
    public static readonly MessageCodecs All = new(FormatOptions.Default);

    public static MessageCodec Protobuf => All.Codec(CodecNames.Protobuf);

    public static MessageCodec Json => All.Codec(CodecNames.Json);

    public static MessageCodec? Xml => All.Find(CodecNames.Xml);

    public static bool HasXml => Xml is not null;

    public static bool HasForm => All.Find(CodecNames.Form) is not null;

    /// <summary>Google.Protobuf's own JSON mapping, the peer of ProtoHttp's JSON codec.</summary>
    public static readonly JsonFormatter GoogleFormatter = new(JsonFormatter.Settings.Default);

    public static readonly JsonParser GoogleParser = new(JsonParser.Settings.Default);

    public static byte[] Write(IMessageCodec codec, IMessage message)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        codec.Write(message, buffer);
        return buffer.WrittenSpan.ToArray();
    }
}

using System.Buffers;
using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Tests.Formats;

/// <summary>Runs the real codecs, as registered in <see cref="MessageCodecs"/>.</summary>
internal static class CodecHelpers
{
    public static MessageCodecs Codecs { get; } = new(FormatOptions.Default);

    public static byte[] Write(string format, IMessage message, MessageCodecs? codecs = null)
    {
        var output = new ArrayBufferWriter<byte>();
        (codecs ?? Codecs).Codec(format).Write(message, output);
        return output.WrittenSpan.ToArray();
    }

    public static string WriteText(string format, IMessage message, MessageCodecs? codecs = null) => Encoding.UTF8.GetString(Write(format, message, codecs));

    public static IMessage Read(string format, byte[] body, MessageDescriptor descriptor, MessageCodecs? codecs = null) =>
        (codecs ?? Codecs).Codec(format).Read(new ReadOnlySequence<byte>(body), descriptor);

    public static IMessage Read(string format, string body, MessageDescriptor descriptor, MessageCodecs? codecs = null) =>
        Read(format, Encoding.UTF8.GetBytes(body), descriptor, codecs);

    public static T Read<T>(string format, string body)
        where T : IMessage<T>, new() => (T)Read(format, body, new T().Descriptor);

    /// <summary>The reader's exception; fails unless it is an <see cref="InvalidMessageException"/>.</summary>
    public static InvalidMessageException ReadFails(string format, string body, MessageDescriptor descriptor, MessageCodecs? codecs = null) =>
        Assert.Throws<InvalidMessageException>(() => Read(format, body, descriptor, codecs));

    public static InvalidMessageException ReadFails(string format, byte[] body, MessageDescriptor descriptor) =>
        Assert.Throws<InvalidMessageException>(() => Read(format, body, descriptor));
}

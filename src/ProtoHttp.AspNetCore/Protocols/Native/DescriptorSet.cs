using System.Text;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp.AspNetCore.Protocols.Native;

/// <summary>
/// The <c>FileDescriptorSet</c> of a service's file and everything it imports, dependencies first (as
/// <c>protoc --include_imports</c> writes it), so a client in any language can build dynamic messages from it.
/// Made once per mapped file, in protobuf and in JSON.
/// </summary>
internal sealed class DescriptorSet
{
    private DescriptorSet(byte[] protobuf, byte[] json)
    {
        Protobuf = protobuf;
        Json = json;
    }

    public byte[] Protobuf { get; }

    public byte[] Json { get; }

    public static DescriptorSet For(FileDescriptor file)
    {
        var set = new FileDescriptorSet();
        var seen = new HashSet<string>();
        Add(file, set, seen);
        return new DescriptorSet(set.ToByteArray(), Encoding.UTF8.GetBytes(JsonFormatter.Default.Format(set)));
    }

    private static void Add(FileDescriptor file, FileDescriptorSet set, HashSet<string> seen)
    {
        if (!seen.Add(file.Name))
        {
            return;
        }

        foreach (var dependency in file.Dependencies)
        {
            Add(dependency, set, seen);
        }

        // The descriptor exactly as protoc compiled it into the generated code.
        set.File.Add(FileDescriptorProto.Parser.ParseFrom(file.SerializedData));
    }
}

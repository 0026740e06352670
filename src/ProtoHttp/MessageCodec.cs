using System.Buffers;
using System.Collections.Immutable;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>
/// A format messages travel in, registered by its media types as connect-go registers codecs by name: a
/// <see cref="Name"/>, the <see cref="MediaTypes"/> it reads and writes, a <see cref="Read"/> and a <see cref="Write"/>.
/// Every list of media types a server answers with (<c>Accept</c> negotiation, <c>Accept-Post</c>, the 406 and 415
/// texts, the suffix routes, the explorer, OpenAPI) derives from the codecs registered, the built-in ones and an app's own
/// (<c>AddProtoHttp(o =&gt; o.Codecs.Add(new MyCodec()))</c>). The optional abilities are the init-only properties.
/// </summary>
/// <remarks>
/// A codec is shared by every call of a service and must be safe to use from several threads. Its <see cref="Read"/>
/// throws <see cref="InvalidMessageException"/> for a body that is not a message (the server answers 400), its
/// <see cref="Write"/> <see cref="UnwritableMessageException"/> for a message it cannot represent (406).
/// </remarks>
public abstract class MessageCodec : IMessageCodec
{
    private static readonly SearchValues<char> NameCharacters =
        SearchValues.Create("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_");

    /// <summary>A codec called <paramref name="name"/> that reads (and writes) <paramref name="mediaTypes"/>, the first canonical.</summary>
    /// <param name="name">Its name, as Connect names codecs (<c>proto</c>, <c>json</c>): it finds the codec and gives the envelope media types; kept lower-case.</param>
    /// <param name="mediaTypes">Media types, <c>type/subtype</c> without parameters; the first is what answers go out as.</param>
    /// <exception cref="ArgumentException">The name is empty or not a subtype's characters, or a media type is not <c>type/subtype</c>.</exception>
    protected MessageCodec(string name, params string[] mediaTypes)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(mediaTypes);
        // The name ends media types (application/{name}, application/connect+{name}, application/grpc-web+{name}) and
        // Connect's encoding= parameter, so it must be a media type's subtype characters, compared without case.
        if (name.AsSpan().ContainsAnyExcept(NameCharacters))
        {
            throw new ArgumentException($"The codec name '{name}' must be letters, digits, '.', '-' or '_', as it ends media types such as application/connect+{{name}}.", nameof(name));
        }

        if (mediaTypes.Length == 0)
        {
            throw new ArgumentException($"The codec '{name}' needs at least one media type.", nameof(mediaTypes));
        }

        foreach (var type in mediaTypes)
        {
            var slash = type?.IndexOf('/') ?? -1;
            if (type is null || slash <= 0 || slash == type.Length - 1 || type.AsSpan().IndexOfAny(";, *") >= 0)
            {
                throw new ArgumentException($"The codec '{name}' names the media type '{type}'; a media type is type/subtype, without parameters or wildcards.", nameof(mediaTypes));
            }
        }

        Name = name.ToLowerInvariant();
        MediaTypes = [.. mediaTypes.Select(type => type.ToLowerInvariant())];
    }

    /// <summary>The codec's name, lower-case, as Connect names codecs: <c>proto</c>, <c>json</c>, <c>xml</c>, <c>form</c>.</summary>
    public string Name { get; }

    /// <summary>The media types it reads, and writes when <see cref="CanWrite"/>; the first is canonical.</summary>
    public ImmutableArray<string> MediaTypes { get; }

    /// <summary>
    /// The suffix on a method's path that forces an answer in this codec (<c>.json</c>); <see langword="null"/> for none.
    /// </summary>
    public string? Suffix { get; init; }

    /// <summary>
    /// Whether bodies are UTF-8 text: answers say <c>; charset=utf-8</c>, and a request naming another charset is 415.
    /// </summary>
    public bool IsText { get; init; }

    /// <summary>
    /// A structured syntax suffix (RFC 6839) such as <c>+json</c>: any <c>type/subtype+json</c> is read too, never written.
    /// </summary>
    public string? StructuredSuffix { get; init; }

    /// <summary>
    /// Whether a message in it can travel as the payload of an envelope, the length-prefixed frame of a stream
    /// (<c>application/connect+{Name}</c>, docs/protocol.md section 10), and so in every protocol that names codecs by
    /// <see cref="Name"/> in its media types: Connect's <c>application/{Name}</c> and <c>encoding={Name}</c>, gRPC-Web's
    /// <c>application/grpc-web+{Name}</c>. A codec whose bytes stand alone only in a whole body leaves it off.
    /// </summary>
    public bool CanBeEnveloped { get; init; }

    /// <summary>Whether answers can be written in it; a read-only codec (form bodies) leaves <see cref="Write"/> unused.</summary>
    public virtual bool CanWrite => true;

    /// <inheritdoc/>
    public abstract IMessage Read(ReadOnlySequence<byte> body, MessageDescriptor descriptor);

    /// <inheritdoc/>
    public abstract void Write(IMessage message, IBufferWriter<byte> output);

    /// <summary>
    /// This codec for a service's <paramref name="options"/> (unknown fields, names, depth, extensions, <c>Any</c> types),
    /// built once per service; the default is this instance, for a codec that has no use for them.
    /// </summary>
    public virtual MessageCodec WithOptions(FormatOptions options) => this;
}

using System.Collections.Immutable;
using Google.Protobuf;
using ProtoHttp.Forms;
using ProtoHttp.Json;
using ProtoHttp.Xml;
namespace ProtoHttp;

/// <summary>
/// The codec registry of one service (docs/protocol.md sections 2-4): the built-in codecs (protobuf, JSON, XML, form)
/// and an app's own, each built once for one set of <see cref="FormatOptions"/>, keyed by media type. Every list of
/// media types (what answers can be written in, <c>Accept-Post</c>) derives from it. Safe to share between threads:
/// what ProtoHttp's server and client read and write messages with.
/// </summary>
public sealed class MessageCodecs
{
    private readonly WritableMediaType[] _canonical;
    // JSON is the codec of last resort (a read-only codec's answers, an error nobody's Accept can carry): found once.
    private readonly MessageCodec _json;

    // The last Content-Type each codec (by its place in All) was read from: a service's clients send each format in
    // one or two spellings, so most requests match a string seen before and skip the parse. Each slot is one
    // reference, written whole, so threads may race on it; nothing is allocated.
    private readonly string?[] _lastSpelling;

    /// <summary>Builds the built-in codecs for <paramref name="options"/>.</summary>
    public MessageCodecs(FormatOptions options)
        : this(options, [])
    {
    }

    /// <summary>Builds the built-in codecs and <paramref name="added"/> for <paramref name="options"/>.</summary>
    /// <param name="options">The options every codec is built with (<see cref="MessageCodec.WithOptions"/>).</param>
    /// <param name="added">An app's own codecs, after the built-in ones in every list and in <c>Accept</c> tie-breaks.</param>
    /// <exception cref="InvalidOperationException">An added codec's name, media type or suffix is another codec's.</exception>
    public MessageCodecs(FormatOptions options, IEnumerable<MessageCodec> added)
        // The switch is tested right where the codec is made: the trimmer folds it and drops the branch (a condition
        // with anything else in it keeps the codec compiled in).
        : this(options, added, XmlSupport.IsSupported ? new XmlCodec(options) : null)
    {
    }

    /// <param name="options">The options every codec is built with.</param>
    /// <param name="added">An app's own codecs.</param>
    /// <param name="xml">The XML codec, or null as the ProtoHttp.Xml.IsSupported switch leaves it out (tests too).</param>
    internal MessageCodecs(FormatOptions options, IEnumerable<MessageCodec> added, MessageCodec? xml)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(added);
        Options = options;
        _json = new JsonCodec(options);
        MessageCodec?[] builtIn = [ProtobufCodec.Instance, _json, xml, new FormBinder(options)];
        var all = new List<MessageCodec>(builtIn.OfType<MessageCodec>());
        foreach (var codec in added)
        {
            ArgumentNullException.ThrowIfNull(codec, nameof(added));
            Check(codec, all);
            all.Add(codec.WithOptions(options));
        }

        All = [.. all];
        _lastSpelling = new string?[All.Length];
        Writable = [.. All.Where(codec => codec.CanWrite).SelectMany(codec => codec.MediaTypes.Select(type => new WritableMediaType(type, codec)))];
        _canonical = [.. All.Select(codec => codec.CanWrite ? Writable.First(type => type.Codec == codec) : null!)];
        AcceptPost = string.Join(", ", All.SelectMany(codec =>
            codec.StructuredSuffix is { } suffix ? [.. codec.MediaTypes, "application/*" + suffix] : codec.MediaTypes.AsEnumerable()));
    }

    /// <summary>
    /// The protobuf codec. It has no options, so every registry holds this one instance, and a writer can tell protobuf
    /// by reference (and write it straight into its output, since protobuf knows a message's size before writing it).
    /// </summary>
    public static MessageCodec Protobuf => ProtobufCodec.Instance;

    /// <summary>The options the codecs were built with.</summary>
    public FormatOptions Options { get; }

    /// <summary>
    /// Every codec, built for <see cref="Options"/>: protobuf, JSON, XML (unless the app turned the
    /// <c>ProtoHttp.Xml.IsSupported</c> switch off), form, then the app's own in the order added.
    /// </summary>
    public ImmutableArray<MessageCodec> All { get; }

    /// <summary>The types a response can be written in, in <c>Accept</c> tie-break order: by codec as in <see cref="All"/>, canonical type first.</summary>
    public ImmutableArray<WritableMediaType> Writable { get; }

    /// <summary>The value of <c>Accept-Post</c>: every type a request body can be sent in, <c>application/*+json</c> style suffixes too.</summary>
    public string AcceptPost { get; }

    /// <summary>
    /// The codec called <paramref name="name"/> (<see cref="MessageCodec.Name"/>, without case; <see cref="CodecNames"/>
    /// has the built-in ones), or <see langword="null"/> when there is none, as for XML where the app turns the
    /// <c>ProtoHttp.Xml.IsSupported</c> switch off.
    /// </summary>
    public MessageCodec? Find(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        foreach (var codec in All)
        {
            // Names are lower-case and the built-in ones interned: the reference test answers most lookups.
            if (ReferenceEquals(codec.Name, name) || string.Equals(codec.Name, name, StringComparison.OrdinalIgnoreCase))
            {
                return codec;
            }
        }

        return null;
    }

    /// <summary>The codec called <paramref name="name"/> (<see cref="Find"/>).</summary>
    /// <exception cref="InvalidOperationException">No codec has that name; the message lists those there are.</exception>
    public MessageCodec Codec(string name) => Find(name) ?? throw Absent(name);

    /// <summary>The canonical type a response in the codec called <paramref name="name"/> is written with (JSON's for a codec that only reads, forms).</summary>
    /// <exception cref="InvalidOperationException">No codec has that name; the message lists those there are.</exception>
    public WritableMediaType Canonical(string name) => Canonical(Codec(name));

    /// <summary>The canonical type <paramref name="codec"/>, one of <see cref="All"/>, writes with; JSON's for a codec that does not write.</summary>
    public WritableMediaType Canonical(MessageCodec codec)
    {
        for (var i = 0; i < All.Length; i++)
        {
            if (All[i] == codec && _canonical[i] is { } type)
            {
                return type;
            }
        }

        return Canonical(_json);
    }

    private InvalidOperationException Absent(string name) =>
        new($"No codec is named '{name}' here; the codecs are {string.Join(", ", All.Select(codec => codec.Name))}."
            + (string.Equals(name, CodecNames.Xml, StringComparison.OrdinalIgnoreCase)
                ? $" The XML codec is left out where the app sets the feature switch {XmlSupport.SwitchName} to false."
                : ""));

    /// <summary>Finds the codec of a request <c>Content-Type</c>: a codec's own type first, then a structured suffix (<c>+json</c>).</summary>
    /// <returns>The outcome; <see cref="ContentTypeMatch.Codec"/> is set unless it is <see cref="ContentTypeStatus.Unknown"/>.</returns>
    public ContentTypeMatch MatchContentType(string contentType)
    {
        ArgumentNullException.ThrowIfNull(contentType);
        for (var i = 0; i < _lastSpelling.Length; i++)
        {
            if (string.Equals(_lastSpelling[i], contentType, StringComparison.Ordinal))
            {
                return new ContentTypeMatch(ContentTypeStatus.Readable, All[i]);
            }
        }

        var match = ParseContentType(contentType);
        if (match.Status == ContentTypeStatus.Readable)
        {
            _lastSpelling[All.IndexOf(match.Codec!)] = contentType;
        }

        return match;
    }

    private ContentTypeMatch ParseContentType(string contentType)
    {
        var span = contentType.AsSpan();
        var semicolon = span.IndexOf(';');
        var type = (semicolon < 0 ? span : span[..semicolon]).Trim();
        var parameters = semicolon < 0 ? ReadOnlySpan<char>.Empty : span[(semicolon + 1)..];

        var codec = FindExact(type);
        if (codec is null && type.Contains('/'))
        {
            foreach (var candidate in All)
            {
                if (candidate.StructuredSuffix is { } suffix && type.EndsWith(suffix, StringComparison.OrdinalIgnoreCase))
                {
                    codec = candidate;
                    break;
                }
            }
        }

        if (codec is null)
        {
            return new ContentTypeMatch(ContentTypeStatus.Unknown, null);
        }

        return !codec.IsText || IsUtf8OrAbsent(parameters)
            ? new ContentTypeMatch(ContentTypeStatus.Readable, codec)
            : new ContentTypeMatch(ContentTypeStatus.UnsupportedCharset, codec);
    }

    /// <summary>
    /// Checks a message read by one of the readers for the proto2 <c>required</c> fields it lacks, at any depth and
    /// inside the extensions of <see cref="Options"/>; readers leave this check to the caller, as a server checks
    /// requests and a client trusts responses.
    /// </summary>
    /// <exception cref="InvalidMessageException">One or more required fields are not set; the message names them.</exception>
    public void CheckRequiredFields(IMessage message) => RequiredFields.Check(message, Options.Extensions);

    private MessageCodec? FindExact(ReadOnlySpan<char> type)
    {
        foreach (var codec in All)
        {
            foreach (var mediaType in codec.MediaTypes)
            {
                if (type.Equals(mediaType, StringComparison.OrdinalIgnoreCase))
                {
                    return codec;
                }
            }
        }

        return null;
    }

    private static void Check(MessageCodec codec, List<MessageCodec> registered)
    {
        foreach (var other in registered)
        {
            if (string.Equals(other.Name, codec.Name, StringComparison.OrdinalIgnoreCase))
            {
                throw new InvalidOperationException($"Two codecs are named '{codec.Name}': give {codec.GetType().Name} a name of its own.");
            }

            if (other.MediaTypes.Intersect(codec.MediaTypes).FirstOrDefault() is { } type)
            {
                throw new InvalidOperationException(
                    $"The media type '{type}' is both the '{other.Name}' codec's and the '{codec.Name}' codec's: a media type names one codec.");
            }

            if (codec.Suffix is { } suffix && string.Equals(other.Suffix, suffix, StringComparison.OrdinalIgnoreCase))
            {
                throw new InvalidOperationException($"The suffix '{suffix}' is both the '{other.Name}' codec's and the '{codec.Name}' codec's: a suffix forces one codec.");
            }
        }

        if (codec.Suffix is { } own && (own.Length < 2 || own[0] != '.' || own.AsSpan(1).ContainsAnyExcept(SuffixCharacters)))
        {
            throw new InvalidOperationException($"The '{codec.Name}' codec's suffix '{own}' must be a dot and letters or digits, e.g. '.csv'.");
        }
    }

    private static readonly System.Buffers.SearchValues<char> SuffixCharacters =
        System.Buffers.SearchValues.Create("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

    private static bool IsUtf8OrAbsent(ReadOnlySpan<char> parameters)
    {
        foreach (var range in parameters.Split(';'))
        {
            var parameter = parameters[range];
            var equals = parameter.IndexOf('=');
            if (equals < 0 || !parameter[..equals].Trim().Equals("charset", StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            var value = parameter[(equals + 1)..].Trim().Trim('"');
            return value.Equals("utf-8", StringComparison.OrdinalIgnoreCase) || value.Equals("utf8", StringComparison.OrdinalIgnoreCase);
        }

        return true;
    }
}

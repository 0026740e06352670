using System.Reflection;
using System.Text.RegularExpressions;
using ProtoHttp.AspNetCore;

namespace ProtoHttp.Tests.Architecture;

/// <summary>
/// docs/architecture.md's rule "nothing in the generic rooms refers to Protocols/", checked two ways: in the compiled
/// server assembly (every signature of every type in a generic room's namespace: base types, interfaces, fields,
/// properties, methods, constructors, events, generic arguments) and in the source of the generic folders (every
/// identifier outside comments and string literals, so method bodies count too), against the namespaces and the type
/// names declared under src/ProtoHttp.AspNetCore/Protocols/.
/// </summary>
public sealed partial class GenericRoomsTests
{
    /// <summary>The rooms that serve every protocol and may name none (docs/architecture.md, "The rooms").</summary>
    public static readonly TheoryData<string> GenericRooms =
        ["Pipeline", "Invocation", "Framing", "Negotiation", "Internal", "Explorer", "Caching", "Telemetry", "Topics"];

    private const string ServerNamespace = "ProtoHttp.AspNetCore";
    private const string ProtocolsNamespace = ServerNamespace + ".Protocols";

    private static readonly Assembly Server = typeof(ProtoHttpOptions).Assembly;

    [Theory]
    [MemberData(nameof(GenericRooms))]
    public void NoTypeOfAGenericRoomNamesAProtocolTypeInItsSignatures(string room)
    {
        var types = Server.GetTypes().Where(type => type.Namespace == $"{ServerNamespace}.{room}").ToList();
        Assert.NotEmpty(types);

        var offending = types
            .SelectMany(type => ReferencedTypes(type).Where(IsProtocolType).Select(referenced => $"{type.FullName} -> {referenced.FullName}"))
            .Distinct()
            .ToList();

        Assert.True(offending.Count == 0, $"The {room} room refers to protocol types:\n" + string.Join("\n", offending));
    }

    [Theory]
    [MemberData(nameof(GenericRooms))]
    public void NoSourceFileOfAGenericRoomNamesAProtocol(string room)
    {
        var files = Directory.GetFiles(Path.Combine(SourceRoot, room), "*.cs", SearchOption.AllDirectories);
        Assert.NotEmpty(files);
        var protocolTypes = ProtocolTypeNames();

        var offending = new List<string>();
        foreach (var file in files)
        {
            var code = CodeOnly(File.ReadAllText(file));
            foreach (Match identifier in Identifier().Matches(code))
            {
                // "Protocols" as a name of its own is the protocols' namespace (Protocols.Connect..., using ...Protocols.X).
                if (identifier.Value == "Protocols" || protocolTypes.Contains(identifier.Value))
                {
                    offending.Add($"{Path.GetRelativePath(SourceRoot, file)}: {identifier.Value}");
                }
            }
        }

        Assert.True(offending.Count == 0, $"The {room} room names protocols:\n" + string.Join("\n", offending.Distinct()));
    }

    [Fact]
    public void TheProtocolsTypeNamesAreTheirOwn()
    {
        // A generic type named as a protocol's would make the source check fail for the wrong reason: the names must differ.
        var protocolTypes = ProtocolTypeNames();
        Assert.Contains("NativeProtocol", protocolTypes);
        Assert.Contains("GrpcTimeout", protocolTypes);
        var shared = Server.GetTypes()
            .Where(type => type.Namespace is { } ns && ns.StartsWith(ServerNamespace, StringComparison.Ordinal) && !IsProtocolType(type))
            .Select(type => StripArity(type.Name))
            .Where(protocolTypes.Contains)
            .ToList();
        Assert.Empty(shared);
    }

    /// <summary>The check of identifiers finds a protocol's name in code and leaves comments and literals alone.</summary>
    [Fact]
    public void TheSourceCheckSeesCodeOnly()
    {
        var code = CodeOnly(""""
            // ConnectTimeout in a comment
            /// <see cref="NativeProtocol"/>
            /* Protocols.Connect */
            var text = "Protocols.Native";
            var verbatim = @"ConnectProtocol ""quoted""";
            var c = 'P';
            var x = Protocols.Connect.ConnectTimeout.Parse(value);
            var y = $"{Hole}";
            """");
        var identifiers = Identifier().Matches(code).Select(m => m.Value).ToList();
        Assert.Equal(["var", "text", "var", "verbatim", "var", "c", "var", "x", "Protocols", "Connect", "ConnectTimeout", "Parse", "value", "var", "y", "Hole"], identifiers);
    }

    private static bool IsProtocolType(Type type) =>
        type.Namespace is { } ns && (ns == ProtocolsNamespace || ns.StartsWith(ProtocolsNamespace + ".", StringComparison.Ordinal));

    /// <summary>Every type a type's signatures name, generic arguments, arrays and by-refs unwrapped.</summary>
    private static IEnumerable<Type> ReferencedTypes(Type type)
    {
        const BindingFlags all = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly;
        IEnumerable<Type?> direct =
        [
            type.BaseType,
            .. type.GetInterfaces(),
            .. type.IsGenericType ? type.GetGenericArguments() : [],
            .. type.GetFields(all).Select(field => field.FieldType),
            .. type.GetProperties(all).Select(property => property.PropertyType),
            .. type.GetEvents(all).Select(e => e.EventHandlerType),
            .. type.GetMethods(all).SelectMany(method => (IEnumerable<Type>)[method.ReturnType, .. method.GetParameters().Select(p => p.ParameterType)]),
            .. type.GetConstructors(all).SelectMany(constructor => constructor.GetParameters().Select(p => p.ParameterType)),
        ];
        return direct.OfType<Type>().SelectMany(Unwrap);
    }

    private static IEnumerable<Type> Unwrap(Type type)
    {
        if (type.HasElementType)
        {
            return Unwrap(type.GetElementType()!);
        }

        return type.IsGenericType && !type.IsGenericTypeDefinition
            ? [type.GetGenericTypeDefinition(), .. type.GetGenericArguments().SelectMany(Unwrap)]
            : [type];
    }

    /// <summary>The names of the types declared under Protocols/, read from the assembly (nested ones too).</summary>
    private static HashSet<string> ProtocolTypeNames() =>
        [.. Server.GetTypes().Where(IsProtocolType).Where(type => !type.Name.Contains('<')).Select(type => StripArity(type.Name))];

    private static string StripArity(string name) => name.IndexOf('`') is var tick and >= 0 ? name[..tick] : name;

    /// <summary>
    /// The source with comments and string and character literals blanked out, so only code is left; an interpolated
    /// string is kept whole, since its holes are code (its text can only make the check stricter).
    /// </summary>
    private static string CodeOnly(string source) =>
        CommentOrLiteral().Replace(source, match => match.Value.StartsWith('$') ? match.Value : " ");

    private static string SourceRoot { get; } = FindSourceRoot();

    private static string FindSourceRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "ProtoHttp.sln")))
            {
                return Path.Combine(directory.FullName, "src", ServerNamespace);
            }
        }

        throw new InvalidOperationException($"No ProtoHttp.sln above {AppContext.BaseDirectory}: the architecture tests read the server's source.");
    }

    // Line and block comments, raw, verbatim, interpolated and plain string literals, and character literals.
    [GeneratedRegex(""""//[^\n]*|/\*.*?\*/|"""[\s\S]*?"""|\$?@"(?:[^"]|"")*"|\$?"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)+'"""", RegexOptions.Singleline)]
    private static partial Regex CommentOrLiteral();

    [GeneratedRegex(@"\b[A-Za-z_][A-Za-z0-9_]*\b")]
    private static partial Regex Identifier();
}

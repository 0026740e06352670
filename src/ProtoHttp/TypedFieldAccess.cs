using System.Linq.Expressions;
using System.Reflection;
using System.Runtime.CompilerServices;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>
/// Reads and sets a singular field of a generated message through its C# property, with the value typed: where the
/// runtime compiles code (the JIT), a getter <c>m =&gt; ((Order)m).Quantity</c> and a setter compiled once per field.
/// Google.Protobuf's <see cref="IFieldAccessor"/> takes and gives values as <see cref="object"/>, which boxes every
/// number, bool and enum read or written (about 270 KB per W1 JSON or XML answer); these do not.
/// </summary>
/// <remarks>
/// Under Native AOT, where no code is compiled at run time, both return null and the codecs keep the accessor (the
/// branch is removed at compile time: <see cref="RuntimeFeature.IsDynamicCodeSupported"/> is a constant there, and the
/// trim and AOT analyzers take it as the guard of the expression compiler). Each delegate is checked on a fresh message
/// against the accessor before it is used: a property the naming rule did not find, or a different property, gives
/// null, never a wrong value.
/// </remarks>
internal static class TypedFieldAccess
{
    // Members every generated message declares or overrides; protoc's C# generator suffixes a field property so named
    // with "_", as it does one named as its message (csharp_helpers.cc, GetPropertyName).
    private static readonly HashSet<string> ReservedNames =
        ["Types", "Descriptor", "Equals", "ToString", "GetHashCode", "WriteTo", "Clone", "CalculateSize", "MergeFrom", "OnConstruction", "Parser"];

    /// <summary>
    /// A typed getter of <paramref name="field"/>, or null (Native AOT, or a field this cannot serve): an enum field
    /// as its number (<typeparamref name="T"/> <see cref="int"/>). Only for the value types the accessor boxes.
    /// </summary>
    public static Func<IMessage, T>? Getter<T>(FieldDescriptor field)
    {
        if (!RuntimeFeature.IsDynamicCodeSupported || Probe<T>() is not { } boxedProbe || Property(field, typeof(T)) is not { } property)
        {
            return null;
        }

        var message = Expression.Parameter(typeof(IMessage), "message");
        Expression value = Expression.Property(Expression.Convert(message, property.DeclaringType!), property);
        if (value.Type != typeof(T))
        {
            value = Expression.Convert(value, typeof(T));
        }

        var getter = Expression.Lambda<Func<IMessage, T>>(value, message).Compile();
        var probe = (T)boxedProbe;
        var sample = MessageFactory.Create(field.ContainingType);
        field.Accessor.SetValue(sample, boxedProbe);
        return EqualityComparer<T>.Default.Equals(getter(sample), probe) ? getter : null;
    }

    /// <summary>A typed setter of <paramref name="field"/>, or null, as <see cref="Getter{T}"/>.</summary>
    public static Action<IMessage, T>? Setter<T>(FieldDescriptor field)
    {
        if (!RuntimeFeature.IsDynamicCodeSupported || Probe<T>() is not { } boxedProbe || Property(field, typeof(T)) is not { SetMethod: not null } property)
        {
            return null;
        }

        var message = Expression.Parameter(typeof(IMessage), "message");
        var value = Expression.Parameter(typeof(T), "value");
        Expression assigned = property.PropertyType == typeof(T) ? value : Expression.Convert(value, property.PropertyType);
        var setter = Expression.Lambda<Action<IMessage, T>>(
            Expression.Assign(Expression.Property(Expression.Convert(message, property.DeclaringType!), property), assigned),
            message, value).Compile();
        var probe = (T)boxedProbe;
        var sample = MessageFactory.Create(field.ContainingType);
        setter(sample, probe);
        // Unboxing reads an enum as its int.
        return field.Accessor.GetValue(sample) is { } stored && EqualityComparer<T>.Default.Equals((T)stored, probe) ? setter : null;
    }

    // A value of T other than its default, to tell the field's property from any other; null for the types this
    // leaves to the accessor (references, which it does not box).
    private static object? Probe<T>() => typeof(T) switch
    {
        var t when t == typeof(int) => 7,
        var t when t == typeof(uint) => 7u,
        var t when t == typeof(long) => 7L,
        var t when t == typeof(ulong) => 7ul,
        var t when t == typeof(float) => 7.5f,
        var t when t == typeof(double) => 7.5,
        var t when t == typeof(bool) => true,
        _ => null,
    };

    // The field's property, when its type is T (or an enum over int, for T int) and the field is one this serves: a
    // singular field of a generated class, not an extension, not a wrapper (whose property is a nullable scalar).
    private static PropertyInfo? Property(FieldDescriptor field, Type valueType)
    {
        if (field.IsRepeated || field.IsMap || field.IsExtension || field.ContainingType.ClrType is not { } clrType)
        {
            return null;
        }

        var property = clrType.GetProperty(PropertyName(field), BindingFlags.Public | BindingFlags.Instance);
        if (property is not { GetMethod: not null })
        {
            return null;
        }

        var type = property.PropertyType;
        return type == valueType || (valueType == typeof(int) && type.IsEnum && Enum.GetUnderlyingType(type) == typeof(int)) ? property : null;
    }

    // protoc's C# name for a field's property (csharp_helpers.cc: GetPropertyName over UnderscoresToCamelCase).
    private static string PropertyName(FieldDescriptor field)
    {
        var source = field.FieldType == FieldType.Group ? field.MessageType.Name : field.Name;
        var name = new System.Text.StringBuilder(source.Length);
        var capitalizeNext = true;
        foreach (var c in source)
        {
            if (c is >= 'a' and <= 'z')
            {
                name.Append(capitalizeNext ? char.ToUpperInvariant(c) : c);
                capitalizeNext = false;
            }
            else if (c is >= 'A' and <= 'Z')
            {
                name.Append(c);
                capitalizeNext = false;
            }
            else if (c is >= '0' and <= '9')
            {
                name.Append(c);
                capitalizeNext = true;
            }
            else
            {
                capitalizeNext = true;
            }
        }

        var property = name.ToString();
        return property == field.ContainingType.Name || ReservedNames.Contains(property) ? property + "_" : property;
    }
}

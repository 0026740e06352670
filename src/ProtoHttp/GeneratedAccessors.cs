using System.Reflection;
using Google.Protobuf.Collections;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>
/// The typed pieces every per-type plan (JSON and XML, reading and writing) is built from: the property Grpc.Tools
/// generated for a field, open delegates over its accessors, and generic field handlers made for its C# types.
/// </summary>
internal static class GeneratedAccessors
{
    /// <summary>The public instance property generated for <paramref name="field"/>, or null.</summary>
    public static PropertyInfo? Property(Type messageType, FieldDescriptor field) =>
        messageType.GetProperty(field.PropertyName, BindingFlags.Public | BindingFlags.Instance);

    /// <summary>A <c>Func&lt;TMessage, TValue&gt;</c> over the property's getter.</summary>
    public static Delegate Getter(Type messageType, MethodInfo get) =>
        get.CreateDelegate(typeof(Func<,>).MakeGenericType(messageType, get.ReturnType));

    /// <summary>An <c>Action&lt;TMessage, TValue&gt;</c> over the property's setter.</summary>
    public static Delegate Setter(Type messageType, MethodInfo set) =>
        set.CreateDelegate(typeof(Action<,>).MakeGenericType(messageType, set.GetParameters()[0].ParameterType));

    /// <summary>Whether <paramref name="type"/> is a <see cref="MapField{TKey, TValue}"/>.</summary>
    public static bool IsMapField(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(MapField<,>);

    /// <summary>Whether <paramref name="type"/> is a <see cref="RepeatedField{T}"/>.</summary>
    public static bool IsRepeatedField(Type type) => type.IsGenericType && type.GetGenericTypeDefinition() == typeof(RepeatedField<>);

    /// <summary>An instance of the generic <paramref name="definition"/> closed over <paramref name="arguments"/>.</summary>
    public static T Create<T>(Type definition, Type[] arguments, params object[] values) =>
        (T)Activator.CreateInstance(definition.MakeGenericType(arguments), values)!;
}

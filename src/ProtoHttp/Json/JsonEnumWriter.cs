using System.Reflection;
using System.Runtime.CompilerServices;
using Google.Protobuf.Reflection;

namespace ProtoHttp.Json;

/// <summary>
/// An enum by its .proto name (the preferred alias, as JsonFormatter picks it from <see cref="OriginalNameAttribute"/>),
/// or as a bare number when the value has no name.
/// </summary>
internal sealed class JsonEnumWriter<TEnum> : JsonValueWriter<TEnum>
    where TEnum : struct, Enum
{
    private readonly Dictionary<int, byte[]> _names = [];

    public JsonEnumWriter()
    {
        foreach (var field in typeof(TEnum).GetFields(BindingFlags.Public | BindingFlags.Static))
        {
            var original = field.GetCustomAttribute<OriginalNameAttribute>();
            if (original?.PreferredAlias == false)
            {
                continue;
            }

            var number = Convert.ToInt32(field.GetValue(null), System.Globalization.CultureInfo.InvariantCulture);
            _names.TryAdd(number, JsonStringText.Encode(original?.Name ?? field.Name));
        }
    }

    public override void Write(ref Utf8Output output, TEnum value)
    {
        var number = Unsafe.As<TEnum, int>(ref value);
        if (_names.TryGetValue(number, out var name))
        {
            output.Write(name);
        }
        else
        {
            JsonNumberText.Write(ref output, number, quoted: false);
        }
    }

    public override bool IsDefault(TEnum value) => Unsafe.As<TEnum, int>(ref value) == 0;
}

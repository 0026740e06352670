using System.Collections.Concurrent;
using System.Linq.Expressions;
using Google.Protobuf;
using Google.Protobuf.Reflection;

namespace ProtoHttp;

/// <summary>Creates empty messages of a descriptor's generated type, through a constructor delegate compiled once per type.</summary>
internal static class MessageFactory
{
    private static readonly ConcurrentDictionary<Type, Func<IMessage>> Factories = new();

    public static IMessage Create(MessageDescriptor descriptor) =>
        Factories.GetOrAdd(descriptor.ClrType, static type =>
            Expression.Lambda<Func<IMessage>>(Expression.Convert(Expression.New(type), typeof(IMessage))).Compile())();
}

using System.Collections;
using System.Diagnostics.CodeAnalysis;
using Grpc.Core.Interceptors;
using ProtoHttp.AspNetCore.Invocation;

namespace ProtoHttp.AspNetCore;

/// <summary>
/// The <see cref="Interceptor"/>s that run around every unary call of ProtoHttp services, in the order added: the
/// first added runs outermost. Those set with <c>AddProtoHttp(o =&gt; o.Interceptors.Add&lt;T&gt;())</c> run before
/// those a service adds with <c>AddServiceOptions&lt;TService&gt;</c>, as with <c>AddGrpc</c>.
/// </summary>
/// <remarks>
/// An interceptor added without arguments and registered in DI comes from the call's services, with its DI lifetime;
/// otherwise one is created for each call with the given arguments (the rest from DI) and disposed after it, as
/// grpc-dotnet does. <see cref="Add(Type, object[])"/> has the shape of grpc-dotnet's <c>InterceptorCollection.Add</c>,
/// so one method can register the same list with both: <c>AddInterceptors(o.Interceptors.Add)</c>.
/// </remarks>
public sealed class ProtoHttpInterceptorCollection : IReadOnlyCollection<Type>
{
    private readonly List<InterceptorRegistration> _registrations = [];

    /// <summary>How many interceptors have been added.</summary>
    public int Count => _registrations.Count;

    /// <summary>
    /// The registrations in the order they run: those added for every service, then the service's own, whichever
    /// was configured first (options run their configure actions in registration order).
    /// </summary>
    internal IEnumerable<InterceptorRegistration> InRunOrder =>
        _registrations.Where(r => r.Global).Concat(_registrations.Where(r => !r.Global));

    /// <summary>Set while <c>AddProtoHttp</c>'s own configure action runs, so its additions count as global.</summary>
    internal bool AddingGlobal { get; set; }

    /// <summary>Adds an interceptor of type <typeparamref name="TInterceptor"/>.</summary>
    /// <typeparam name="TInterceptor">The interceptor's type.</typeparam>
    /// <param name="args">Constructor arguments that do not come from DI.</param>
    public void Add<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TInterceptor>(params object[] args)
        where TInterceptor : Interceptor =>
        Add(typeof(TInterceptor), args);

    /// <summary>Adds an interceptor of type <paramref name="interceptorType"/>.</summary>
    /// <param name="interceptorType">A type derived from <see cref="Interceptor"/>.</param>
    /// <param name="args">Constructor arguments that do not come from DI.</param>
    /// <exception cref="ArgumentException"><paramref name="interceptorType"/> is not a concrete <see cref="Interceptor"/>.</exception>
    public void Add([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] Type interceptorType, params object[] args)
    {
        ArgumentNullException.ThrowIfNull(interceptorType);
        ArgumentNullException.ThrowIfNull(args);
        if (!typeof(Interceptor).IsAssignableFrom(interceptorType) || interceptorType.IsAbstract)
        {
            throw new ArgumentException(
                $"{interceptorType.Name} is not an interceptor: add a concrete class derived from Grpc.Core.Interceptors.Interceptor.",
                nameof(interceptorType));
        }

        _registrations.Add(new InterceptorRegistration(interceptorType, args, AddingGlobal));
    }

    /// <summary>The interceptor types, in the order they run.</summary>
    /// <returns>An enumerator over the types added.</returns>
    public IEnumerator<Type> GetEnumerator() => _registrations.Select(r => r.Type).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
}

using Microsoft.AspNetCore.Http.Features;

namespace ProtoHttp.AspNetCore.Internal;

/// <summary>
/// Reads a request feature through <see cref="IFeatureCollection"/>'s indexer. <see cref="IFeatureCollection.Get{TFeature}"/>
/// is a generic virtual method, which the runtime resolves on every call (a cache lookup before Kestrel's own search
/// of its features); the indexer is an ordinary interface call to the same search. Used where every call reads one.
/// </summary>
internal static class FeatureLookup
{
    public static TFeature? Find<TFeature>(this IFeatureCollection features) where TFeature : class =>
        features[typeof(TFeature)] as TFeature;
}

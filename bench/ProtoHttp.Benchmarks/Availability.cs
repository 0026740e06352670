namespace ProtoHttp.Benchmarks;

/// <summary>
/// Which benchmarks the library under test can run yet. XML, the form binder and the client are written on other
/// branches; a benchmark whose part is missing is left out and reported as such, never run against nothing.
/// </summary>
internal static class Availability
{
    /// <summary>Why the benchmark cannot run yet, or <see langword="null"/> when it can.</summary>
    public static string? MissingFor(Type type, string method)
    {
        if (type == typeof(ClientBenchmarks) && !ClientInvokers.Available)
        {
            return "ProtoHttp.Client has no CallInvoker yet";
        }

        if (method is "Xml_Write" or "Xml_Read" or "Search_Xml" && !Codecs.HasXml)
        {
            return "MessageCodecs has no XML codec yet";
        }

        if (method is "Search_Form" or "Search_Get" && !Codecs.HasForm)
        {
            return "MessageCodecs has no form/query binder yet";
        }

        return null;
    }
}
